-- What the exports of tests/graphs.test share: one process (globalPid
-- 16777216, thread 16777217) but where a test adds another.
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'gemm_kernel'), (2, 'rope_kernel');
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL,
    end INTEGER NOT NULL, correlationId INTEGER, globalTid INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL,
    end INTEGER NOT NULL, deviceId INTEGER, streamId INTEGER,
    correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
    graphNodeId INTEGER);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL,
    name TEXT);
INSERT INTO TARGET_INFO_GPU VALUES (1, 0, 'NVIDIA H200'),
    (1, 1, 'NVIDIA H200');
