-- sorted: every table in start order, as nsys writes them, and the API
-- calls in correlation id order too, so that sqlite2intervals merges and
-- joins them itself; with the ties of ties.sql, which it must order as
-- the queries do.  The kernels are not in correlation id order (they ran
-- on several streams).
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'), (2, 'cudaGraphLaunch_v10000'),
    (11, 'k_rowid_1'), (12, 'k_rowid_2'), (13, 'k_rowid_3'),
    (14, 'k_rowid_4'), (15, 'k_rowid_5'), (16, 'k_rowid_6'),
    (17, 'k_rowid_7');
INSERT INTO TARGET_INFO_GPU VALUES (1 << 48, 0, 'NVIDIA H100 NVL');
-- rowid 1 has no correlation id; rowid 2 is a graph launch of kernels 2
-- and 3; rowids 4 and 5 start together and launch kernels 5 and 4; rowid
-- 6 launches nothing: kernel 6, of its correlation id, is of pid 300.
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (rowid, start, end, eventClass,
    globalTid, correlationId, nameId, returnValue)
SELECT column1, column2, column3, 1, column4, column5, column6, 0 FROM (VALUES
    (1, 3000, 3050, (1 << 48) | (100 << 24) | 100, NULL, 1),
    (2, 4000, 4100, (1 << 48) | (100 << 24) | 100, 42, 2),
    (3, 4500, 4600, (1 << 48) | (100 << 24) | 101, 43, 1),
    (4, 7000, 7200, (1 << 48) | (100 << 24) | 100, 44, 1),
    (5, 7000, 7100, (1 << 48) | (200 << 24) | 200, 45, 1),
    (6, 7500, 7600, (1 << 48) | (100 << 24) | 100, 46, 1));
-- Kernel 7 has no correlation id: nothing launched it.
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (rowid, start, end, deviceId,
    contextId, streamId, correlationId, globalPid, demangledName, shortName,
    registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ,
    staticSharedMemory, dynamicSharedMemory, localMemoryPerThread,
    localMemoryTotal, gridId)
SELECT column1, column2, column3, 0, 1, column4, column5, column6,
    10 + column1, 10 + column1, 32, 4, 1, 1, 128, 1, 1, 0, 0, 0, 0, column1
FROM (VALUES
    (1, 5000, 5100, 7, 43, (1 << 48) | (100 << 24)),
    (2, 6000, 6100, 8, 42, (1 << 48) | (100 << 24)),
    (3, 6000, 6500, 7, 42, (1 << 48) | (100 << 24)),
    (4, 8000, 8300, 9, 45, (1 << 48) | (200 << 24)),
    (5, 8000, 8100, 7, 44, (1 << 48) | (100 << 24)),
    (6, 8500, 8600, 7, 46, (1 << 48) | (300 << 24)),
    (7, 9000, 9100, 7, NULL, (1 << 48) | (100 << 24)));
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (rowid, start, end, deviceId,
    contextId, streamId, correlationId, globalPid, bytes, copyKind, srcKind,
    dstKind)
SELECT column1, column2, column3, 0, 1, 7, 50 + column1,
    (1 << 48) | (100 << 24), 64, column4, 0, 2
FROM (VALUES
    (1, 5000, 5020, 1),
    (2, 5000, 5050, 2),
    (3, 6000, 6010, 8));
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (rowid, start, end, deviceId,
    contextId, streamId, correlationId, globalPid, value, bytes, memKind)
VALUES (1, 5000, 5001, 0, 1, 7, 60, (1 << 48) | (100 << 24), 0, 8, 2);
