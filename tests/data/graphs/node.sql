-- --cuda-graph-trace=node: the same run, the graphs' kernels rows of the
-- kernel table with their graph node.
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (100, 110, 1, 16777217), (200, 210, 10, 16777217),
    (600, 610, 11, 16777217);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
    (150, 250, 0, 7, 1, 16777216, 1, NULL),
    (300, 400, 0, 7, 10, 16777216, 1, 5),
    (400, 500, 0, 7, 10, 16777216, 2, 6),
    (700, 850, 0, 7, 11, 16777216, 1, 5),
    (850, 1000, 0, 7, 11, 16777216, 2, 6);
