-- bench: a synthetic export for timing sqlite2intervals, not used by the
-- tests.  Make it, with the kernel count in the first statement, by
--   cat schema-3.11.1.sql enums.sql bench.sql | sqlite3 /tmp/bench.sqlite
-- One process launches a kernel every 1000 ns, on four streams; every
-- seventh is a graph launch sharing the API call of the one before, every
-- fourth is followed by a copy; kernel names are 500 templated ones of
-- about 270 bytes.  Correlation ids rise with time and rows are stored in
-- time order, as nsys stores them.
CREATE TEMP TABLE n (i INTEGER PRIMARY KEY);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c
    WHERE i < 200000)
INSERT INTO n SELECT i FROM c;
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'),
    (2, 'cudaMemcpyAsync_v3020');
INSERT INTO StringIds SELECT 100 + i, printf('void at::native::'
    || 'elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<'
    || 'at::native::BinaryFunctor<float, float, float, at::native::'
    || 'binary_internal::MulFunctor<float>>>(at::TensorIteratorBase &, '
    || 'const T1 &)::[lambda(int) (instance %d)]>(int, T3)', i)
    FROM n WHERE i < 500;
INSERT INTO TARGET_INFO_GPU VALUES (1 << 48, 0, 'NVIDIA H200');
-- kernel i: API call at i * 1000, kernel 5000 to 8000 ns later
CREATE TEMP TABLE k AS SELECT i, i - (i % 7 = 0) AS corr, i * 1000 AS api,
    i * 1000 + 5000 + abs(random()) % 3000 AS start FROM n;
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass,
    globalTid, correlationId, nameId, returnValue)
SELECT api, api + 800, 1, (1 << 48) | (100 << 24) | 100, corr, 1, 0
    FROM k WHERE i % 7 != 0
UNION ALL
SELECT api + 900, api + 990, 1, (1 << 48) | (100 << 24) | 100,
    1000000000 + i, 2, 0 FROM k WHERE i % 4 = 0
ORDER BY 1;
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId,
    streamId, correlationId, globalPid, demangledName, shortName,
    registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ,
    staticSharedMemory, dynamicSharedMemory, localMemoryPerThread,
    localMemoryTotal, gridId)
SELECT start, start + 900, 0, 1, 7 + i % 4, corr, (1 << 48) | (100 << 24),
    100 + i % 500, 100 + i % 500, 32, 4, 1, 1, 128, 1, 1, 0, 0, 0, 0, i
    FROM k ORDER BY start + 900;
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId,
    streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind)
SELECT start + 950, start + 990, 0, 1, 7 + i % 4, 1000000000 + i,
    (1 << 48) | (100 << 24), 4096, 1 + i % 2, 0, 2
    FROM k WHERE i % 4 = 0 ORDER BY start;
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId,
    streamId, correlationId, globalPid, value, bytes, memKind)
SELECT start + 991, start + 999, 0, 1, 7, 2000000000 + i,
    (1 << 48) | (100 << 24), 0, 512, 2
    FROM k WHERE i % 100 = 0 ORDER BY start;
