-- The ENUM_* tables the 3.x export schemas carry (2023.1 and 2024.2 write
-- the same rows): schema-3.1.2.sql and schema-3.11.1.sql include them.
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY,
    name TEXT, label TEXT);
INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES
    (0, 'CUDA_MEMCPY_KIND_UNKNOWN', 'Unknown'),
    (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'),
    (2, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host'),
    (3, 'CUDA_MEMCPY_KIND_HTOA', 'Host-to-Array'),
    (4, 'CUDA_MEMCPY_KIND_ATOH', 'Array-to-Host'),
    (5, 'CUDA_MEMCPY_KIND_ATOA', 'Array-to-Array'),
    (6, 'CUDA_MEMCPY_KIND_ATOD', 'Array-to-Device'),
    (7, 'CUDA_MEMCPY_KIND_DTOA', 'Device-to-Array'),
    (8, 'CUDA_MEMCPY_KIND_DTOD', 'Device-to-Device'),
    (9, 'CUDA_MEMCPY_KIND_HTOH', 'Host-to-Host'),
    (10, 'CUDA_MEMCPY_KIND_PTOP', 'Peer-to-Peer'),
    (11, 'CUDA_MEMCPY_KIND_UVM_HTOD', 'Unified Host-to-Device'),
    (12, 'CUDA_MEMCPY_KIND_UVM_DTOH', 'Unified Device-to-Host'),
    (13, 'CUDA_MEMCPY_KIND_UVM_DTOD', 'Unified Device-to-Device');
CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY,
    name TEXT, label TEXT);
INSERT INTO ENUM_CUDA_MEM_KIND VALUES
    (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),
    (1, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),
    (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device'),
    (3, 'CUDA_MEMOPR_MEMORY_KIND_ARRAY', 'Array'),
    (4, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED', 'Managed'),
    (5, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC', 'Device Static'),
    (6, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC', 'Managed Static'),
    (7, 'CUDA_MEMOPR_MEMORY_KIND_UNKNOWN', 'Unknown');
