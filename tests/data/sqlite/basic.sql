-- basic: one process of each kind of GPU work, a second process reusing a
-- correlation id, a graph launch, and names that need escaping.
-- Process A is pid 100 (threads 100, 101), process B pid 200 (thread 200);
-- a globalTid is (1 << 48) | (pid << 24) | tid, its globalPid the same
-- without the tid.
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'cudaMemcpyAsync_v3020'),
    (3, 'cudaMemsetAsync_v3020'),
    (4, 'cudaGraphLaunch_v10000'),
    (10, 'void gemm<float, (int)128>(const T1 *, int)'),
    (11, 'gemm'),
    (12, 'rope_kernel(float*)'),
    (13, 'rope_kernel'),
    (14, 'odd\name' || char(9) || 'tab' || char(10) || 'nl' || char(13) || 'cr'),
    (15, 'odd'),
    (16, 'graph_node_a()'),
    (17, 'graph_node_b()');
INSERT INTO TARGET_INFO_GPU VALUES
    (1 << 48, 0, 'NVIDIA GeForce RTX 2070 SUPER'),
    (1 << 48, 1, 'NVIDIA GeForce RTX 2070 SUPER');
-- API calls: (rowid, start, end, globalTid, correlationId, nameId)
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (rowid, start, end, eventClass,
    globalTid, correlationId, nameId, returnValue)
SELECT column1, column2, column3, 1, column4, column5, column6, 0 FROM (VALUES
    (1, 1000, 1100, (1 << 48) | (100 << 24) | 100, 1, 2),
    (2, 1200, 1300, (1 << 48) | (100 << 24) | 100, 2, 1),
    (3, 1400, 1450, (1 << 48) | (100 << 24) | 100, 3, 3),
    (4, 1500, 1560, (1 << 48) | (200 << 24) | 200, 2, 1),
    (5, 9000, 9040, (1 << 48) | (100 << 24) | 101, 5, 4),
    (6, 9500, 9600, (1 << 48) | (100 << 24) | 100, 6, 1));
-- kernels: (rowid, start, end, deviceId, streamId, correlationId,
-- globalPid, demangledName, shortName).  Kernel 5 has no API call.
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (rowid, start, end, deviceId,
    contextId, streamId, correlationId, globalPid, demangledName, shortName,
    registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ,
    staticSharedMemory, dynamicSharedMemory, localMemoryPerThread,
    localMemoryTotal, gridId)
SELECT column1, column2, column3, column4, 1, column5, column6, column7,
    column8, column9, 32, 4, 1, 1, 128, 1, 1, 0, 0, 0, 0, column1
FROM (VALUES
    (1, 1300, 9100, 0, 7, 2, (1 << 48) | (100 << 24), 10, 11),
    (2, 1600, 2000, 1, 13, 2, (1 << 48) | (200 << 24), 14, 15),
    (3, 9100, 9200, 0, 7, 5, (1 << 48) | (100 << 24), 16, 16),
    (4, 9200, 9300, 0, 7, 5, (1 << 48) | (100 << 24), 17, 17),
    (5, 9800, 9900, 0, 14, 7, (1 << 48) | (100 << 24), 12, 13));
-- copies: (rowid, start, end, streamId, correlationId, copyKind)
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (rowid, start, end, deviceId,
    contextId, streamId, correlationId, globalPid, bytes, copyKind, srcKind,
    dstKind)
SELECT column1, column2, column3, 0, 1, column4, column5,
    (1 << 48) | (100 << 24), 4096, column6, 0, 2
FROM (VALUES
    (1, 1050, 1250, 7, 1, 1),
    (2, 9400, 9700, 7, 8, 2),
    (3, 9450, 9460, 14, 9, 8),
    (4, 9470, 9480, 14, 10, 10),
    (5, 9490, 9495, 14, 11, 11),
    (6, 9496, 9499, 14, 12, 0));
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (rowid, start, end, deviceId,
    contextId, streamId, correlationId, globalPid, value, bytes, memKind)
VALUES (1, 1500, 1600, 0, 1, 7, 3, (1 << 48) | (100 << 24), 0, 512, 2);
