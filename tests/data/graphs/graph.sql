-- --cuda-graph-trace=graph: a kernel launched alone, then two launches of
-- a graph, each a row of the graph trace and none of the kernel table.
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (100, 110, 1, 16777217), (200, 210, 10, 16777217),
    (600, 610, 11, 16777217);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
    (150, 250, 0, 7, 1, 16777216, 1, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start INTEGER NOT NULL,
    end INTEGER NOT NULL, deviceId INTEGER, contextId INTEGER,
    greenContextId INTEGER, streamId INTEGER, correlationId INTEGER,
    globalPid INTEGER, graphId INTEGER, graphExecId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES
    (300, 500, 0, 1, NULL, 7, 10, 16777216, 3, 4),
    (700, 1000, 0, 1, NULL, 7, 11, 16777216, 3, 4);
