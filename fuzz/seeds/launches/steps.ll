1200	1210	1:1	1300	1800	kernel	0	-	-	gemm_kernel
1600	1610	1:1	1700	1900	kernel	0	-	-	qk_int_sv_f8_attn_kernel
2500	2510	1:1	2600	2700	kernel	0	-	-	gemm_kernel
3100	3110	1:1	3200	3300	kernel	0	-	-	gemm_kernel
3100	3110	1:2	3150	3250	kernel	0	-	-	gemm_kernel
4100	4110	1:1	4200	4300	kernel	0	-	-	gemm_kernel
5100	5110	1:1	5200	5300	kernel	0	-	-	gemm_kernel
5300	5310	1:1	5400	5500	kernel	0	-	-	gemm_kernel
