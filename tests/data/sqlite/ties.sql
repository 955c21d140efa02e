-- ties: intervals that start together, stored out of start order, to pin
-- down the order nsys stats writes them in: by start, then kernels before
-- copies before memsets, then by rowid; launches by API start, then by
-- kernel rowid, then by API call rowid.
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (10, 'k_rowid_3'), (11, 'k_rowid_9'), (12, 'k_rowid_30'),
    (13, 'k_rowid_31'), (14, 'k_rowid_5');
INSERT INTO TARGET_INFO_GPU VALUES (1 << 48, 0, 'NVIDIA H100 NVL');
-- rowid 21 (pid 200) launches kernel 30, rowid 20 (pid 100) kernel 31, at
-- the same ns; rowid 22 launches kernels 3 and 9 at once.
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (rowid, start, end, eventClass,
    globalTid, correlationId, nameId, returnValue)
SELECT column1, column2, column3, 1, column4, column5, 1, 0 FROM (VALUES
    (21, 7000, 7100, (1 << 48) | (200 << 24) | 200, 40, 1),
    (20, 7000, 7200, (1 << 48) | (100 << 24) | 100, 41, 1),
    (22, 4000, 4100, (1 << 48) | (100 << 24) | 100, 42, 1),
    (23, 4500, 4600, (1 << 48) | (100 << 24) | 100, 43, 1));
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (rowid, start, end, deviceId,
    contextId, streamId, correlationId, globalPid, demangledName, shortName,
    registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ,
    staticSharedMemory, dynamicSharedMemory, localMemoryPerThread,
    localMemoryTotal, gridId)
SELECT column1, column2, column3, 0, 1, column4, column5, column6,
    column7, column7, 32, 4, 1, 1, 128, 1, 1, 0, 0, 0, 0, column1
FROM (VALUES
    (9, 6000, 6500, 7, 42, (1 << 48) | (100 << 24), 11),
    (3, 6000, 6100, 8, 42, (1 << 48) | (100 << 24), 10),
    (31, 8000, 8100, 7, 41, (1 << 48) | (100 << 24), 13),
    (30, 8000, 8300, 9, 40, (1 << 48) | (200 << 24), 12),
    (5, 5000, 5100, 7, 43, (1 << 48) | (100 << 24), 14));
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (rowid, start, end, deviceId,
    contextId, streamId, correlationId, globalPid, bytes, copyKind, srcKind,
    dstKind)
SELECT column1, column2, column3, 0, 1, 7, 50 + column1,
    (1 << 48) | (100 << 24), 64, column4, 0, 2
FROM (VALUES
    (2, 5000, 5050, 2),
    (1, 5000, 5020, 1),
    (3, 6000, 6010, 8));
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (rowid, start, end, deviceId,
    contextId, streamId, correlationId, globalPid, value, bytes, memKind)
VALUES (1, 5000, 5001, 0, 1, 7, 60, (1 << 48) | (100 << 24), 0, 8, 2);
