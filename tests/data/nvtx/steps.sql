-- Steps on thread 1:1 (globalTid 16777217), the first slower (warm-up), a
-- layer range inside it, a domain range, a range never closed, a range
-- that thread 1:2 opens and 1:1 ends (not counted), a kernel launched
-- outside every range, and one launched on 1:2 inside 1:1's ranges.
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'gemm_kernel'), (2, 'qk_int_sv_f8_attn_kernel'),
    (10, 'registered');
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER,
    eventType INTEGER NOT NULL, rangeId INTEGER, text TEXT,
    globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
    domainId INTEGER);
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid,
    endGlobalTid, textId, domainId) VALUES
    (900, NULL, 75, 'dom', 16777217, NULL, NULL, 1),
    (1000, 2000, 59, 'step', 16777217, NULL, NULL, NULL),
    (1000, 6000, 60, 'other', 16777218, 16777217, NULL, NULL),
    (1100, 1500, 59, 'layer', 16777217, NULL, NULL, NULL),
    (3000, 3500, 59, 'step', 16777217, NULL, NULL, NULL),
    (3000, 3400, 59, NULL, 16777217, NULL, 10, 1),
    (4000, 4500, 59, 'step', 16777217, NULL, NULL, NULL),
    (5000, 5500, 59, 'step', 16777217, NULL, NULL, NULL),
    (5200, NULL, 59, 'open', 16777217, NULL, NULL, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL,
    end INTEGER NOT NULL, correlationId INTEGER, globalTid INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (1200, 1210, 1, 16777217), (1600, 1610, 2, 16777217),
    (3100, 3110, 3, 16777217), (4100, 4110, 4, 16777217),
    (5100, 5110, 5, 16777217), (5300, 5310, 6, 16777217),
    (2500, 2510, 7, 16777217), (3100, 3110, 8, 16777218),
    (4150, 4160, 9, 16777217);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL,
    end INTEGER NOT NULL, deviceId INTEGER, streamId INTEGER,
    correlationId INTEGER, globalPid INTEGER, demangledName INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
    (1300, 1800, 0, 7, 1, 16777216, 1), (1700, 1900, 0, 7, 2, 16777216, 2),
    (3200, 3300, 0, 7, 3, 16777216, 1), (4200, 4300, 0, 7, 4, 16777216, 1),
    (5200, 5300, 0, 7, 5, 16777216, 1), (5400, 5500, 0, 7, 6, 16777216, 1),
    (2600, 2700, 0, 7, 7, 16777216, 1), (3150, 3250, 0, 7, 8, 16777216, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL,
    end INTEGER NOT NULL, deviceId INTEGER, streamId INTEGER,
    correlationId INTEGER, globalPid INTEGER, copyKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES
    (4300, 4450, 0, 7, 9, 16777216, 1);
