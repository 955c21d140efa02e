/*
 * gentrace - write a synthetic pair of nsys stats CSV traces: what nsys
 * would write for a run of a diffusion transformer, shaped by the knobs
 * of its options.  The manual is tests/gentrace.1; usage() and help()
 * print its SYNOPSIS and its options.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Output buffered per file before write(2). */
#define OBUFSZ		(1 << 20)
/* Operations queued on the GPU before a launch call blocks. */
#define QDEPTH		512
/* Least time from the start of a launch call to the start of its work. */
#define LAT_MIN		2000
/* How far behind the main thread the second thread may launch, in ns. */
#define T1_LAG		40000

enum kind { KERNEL, MEMCPY, MEMSET };
enum stream { S_MAIN, S_AUX, S_SIDE, S_T1, NSTREAMS };

/* Flags of an operation in a script. */
#define F_NOGAP		0x01	/* starts right when its stream is free */
#define F_FORK		0x02	/* waits for the work queued on S_MAIN so far */
#define F_JOIN		0x04	/* waits for the work queued on S_AUX so far */
#define F_NEST		0x08	/* waits for a point inside the last S_MAIN op */
#define F_BLOCK		0x10	/* the CPU waits for it to finish */

/* A kind of GPU operation and how it looks in the traces. */
struct opdef {
	enum kind	 kind;
	const char	*name;		/* nsys 2023.4 and later */
	const char	*name22;	/* nsys 2022.4, if it differs */
	unsigned	 base_ns;	/* kernel duration at 720p */
	unsigned	 scale;		/* power of the resolution it grows by */
	unsigned	 grid[3];
	unsigned	 block[3];
	unsigned	 regs;
	unsigned	 smem_s;	/* static shared memory, kB */
	unsigned	 smem_d;	/* dynamic shared memory, kB */
	int		 launchex;	/* launched by cuLaunchKernelEx */
	const char	*src;		/* memory kinds of a memcpy or memset */
	const char	*dst;
	unsigned	 bw;		/* copy bandwidth, bytes per us */
};

enum {
	/* norm_and_rope */
	K_MEANOPS, K_LNORM, K_ROPE,
	/* nvfp4_packing */
	K_ABSMAX, K_FSCALE, K_FILLU8, K_QNVFP4, K_QNVFP4SWZ,
	/* nvfp4_gemms */
	K_GEMMQKV, K_GEMMOUT, K_GEMMFF1, K_GEMMFF2,
	/* sage2 */
	K_TPP, K_QUANTQ, K_QUANTK, K_MEANSCALE, K_SAGE,
	/* remaining_gate_add */
	K_GATEADD, K_SSGATEADD,
	/* other, some of them near misses of the categories above */
	K_MODULATE, K_GELU, K_COPY, K_FLASH, K_SOFTMAX, K_SIN, K_SILU,
	K_BF16GEMM, K_NEARGEMM, K_XMMA, K_FILLBF16, K_MEANF32, K_APPLYROPE,
	K_TRITON, K_QUOTED, K_NEWLINE, K_MAXRED, K_MUL, K_ADD,
	/* nccl, with -N */
	K_NCCL,
	/* copies */
	M_H2D_PAGEABLE, M_H2D_PINNED, M_D2H_PINNED, M_D2H_PAGEABLE, M_D2D,
	M_MEMSET,
	NOPDEFS,
	/* in scripts: not an operation but the CPU waiting for the GPU */
	SYNC = NOPDEFS,
	END = -1
};

#define UINTS11	"unsigned int, unsigned int, unsigned int, unsigned int, " \
	"unsigned int, unsigned int, unsigned int, unsigned int, " \
	"unsigned int, unsigned int, unsigned int"
#define SM120GEMM "void cutlass::device_kernel<" \
	"cutlass3x_sm120_bstensorop_s16864gemm_block_scaled_ue4m3xe2m1_" \
	"ue4m3xe2m1_f32_bf16_bf16_"
#define VEC4	"void at::native::vectorized_elementwise_kernel<(int)4, "
#define ARR2	"std::array<char *, (unsigned long)2>>(int, T2, T3)"

/* Every operation gentrace writes, indexed by the enum above. */
static const struct opdef opdefs[NOPDEFS] = {
[K_MEANOPS] = { KERNEL, "void at::native::reduce_kernel<(int)512, (int)1, "
    "at::native::ReduceOp<c10::BFloat16, at::native::MeanOps<c10::BFloat16, "
    "float, float, c10::BFloat16>, unsigned int, c10::BFloat16, (int)4, "
    "(int)4>>(T3)", NULL, 9000, 2, {3600, 1, 1}, {32, 16, 1}, 40, 0, 0,
    0, NULL, NULL, 0 },
[K_LNORM] = { KERNEL, "void at::native::<unnamed>::"
    "vectorized_layer_norm_kernel<c10::BFloat16, float, (bool)1>(int, T2, "
    "const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)", NULL, 14000, 2,
    {3600, 1, 1}, {256, 1, 1}, 30, 0, 0, 0, NULL, NULL, 0 },
[K_ROPE] = { KERNEL, "void fused_qk_rmsnorm_rope_kernel<__nv_bfloat16, "
    "(int)128, (bool)1>(T1 *, T1 *, const T1 *, const T1 *, const float *, "
    "const float *, int, int, int, float)", NULL, 12000, 2, {3600, 24, 1},
    {128, 1, 1}, 48, 0, 0, 0, NULL, NULL, 0 },
[K_ABSMAX] = { KERNEL, "void nvfp4::partial_absmax_kernel<__nv_bfloat16, "
    "(int)256, (int)8>(const T1 *, float *, long, long)", NULL, 5000, 2,
    {680, 1, 1}, {256, 1, 1}, 32, 0, 0, 0, NULL, NULL, 0 },
[K_FSCALE] = { KERNEL, "void nvfp4::final_scale_kernel<(int)256>("
    "const float *, float *, int, float)", NULL, 1800, 0, {1, 1, 1},
    {256, 1, 1}, 16, 1, 0, 0, NULL, NULL, 0 },
[K_FILLU8] = { KERNEL, VEC4 "at::native::FillFunctor<unsigned char>, "
    "std::array<char *, (unsigned long)1>>(int, T2, T3)", NULL, 1600, 0,
    {120, 1, 1}, {128, 1, 1}, 16, 0, 0, 0, NULL, NULL, 0 },
[K_QNVFP4] = { KERNEL, "void nvfp4::quantize_nvfp4_kernel<__nv_bfloat16, "
    "(int)16, (bool)1>(const T1 *, const float *, unsigned char *, "
    "__nv_fp8_e4m3 *, long, long)", NULL, 7000, 2, {3600, 1, 1},
    {256, 1, 1}, 38, 0, 0, 0, NULL, NULL, 0 },
[K_QNVFP4SWZ] = { KERNEL, "void nvfp4::quantize_nvfp4_sf_swizzle_kernel<"
    "__nv_bfloat16, (int)128, (int)4>(const T1 *, const float *, "
    "unsigned char *, unsigned char *, int, int, int)", NULL, 7500, 2,
    {3600, 1, 1}, {128, 4, 1}, 40, 2, 0, 0, NULL, NULL, 0 },
[K_GEMMQKV] = { KERNEL, SM120GEMM "128x128x256_1x1x1_0_tnt_align32_o_vs16_"
    "epi_tma>(T1::Params)", NULL, 180000, 2, {170, 1, 1}, {384, 1, 1}, 168,
    0, 99, 1, NULL, NULL, 0 },
[K_GEMMOUT] = { KERNEL, SM120GEMM "128x64x256_1x1x1_0_tnt_align32_o_vs16_"
    "epi_tma>(T1::Params)", NULL, 60000, 2, {170, 1, 1}, {384, 1, 1}, 154,
    0, 83, 1, NULL, NULL, 0 },
[K_GEMMFF1] = { KERNEL, SM120GEMM "256x128x256_1x1x1_0_tnt_align32_o_vs16_"
    "bias_bf16_gelu_tanh>(T1::Params)", NULL, 240000, 2, {170, 1, 1},
    {384, 1, 1}, 168, 0, 101, 1, NULL, NULL, 0 },
[K_GEMMFF2] = { KERNEL, SM120GEMM "128x256x256_1x1x1_0_tnt_align32_o_vs16_"
    "epi_tma>(T1::Params)", NULL, 230000, 2, {170, 1, 1}, {384, 1, 1}, 168,
    0, 101, 1, NULL, NULL, 0 },
[K_TPP] = { KERNEL, "void TransposePadPermuteKernel<(unsigned int)128, "
    "(unsigned int)64, (bool)1, __nv_bfloat16>(T4 *, T4 *, unsigned int, "
    "unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, "
    "unsigned int)", NULL, 9000, 2, {113, 24, 1}, {64, 4, 1}, 36, 16, 0, 0,
    NULL, NULL, 0 },
[K_QUANTQ] = { KERNEL, "void QuantInt8Kernel<(unsigned int)128, "
    "(unsigned int)32, (unsigned int)1, (bool)0, (bool)0, __nv_bfloat16>("
    "T6 *, T6 *, signed char *, float *, float, " UINTS11 ")", NULL, 8000, 2,
    {452, 24, 1}, {32, 4, 1}, 40, 0, 0, 0, NULL, NULL, 0 },
[K_QUANTK] = { KERNEL, "void QuantInt8Kernel<(unsigned int)128, "
    "(unsigned int)64, (unsigned int)1, (bool)0, (bool)1, __nv_bfloat16>("
    "T6 *, T6 *, signed char *, float *, float, " UINTS11 ")", NULL, 8500, 2,
    {226, 24, 1}, {32, 4, 1}, 42, 0, 0, 0, NULL, NULL, 0 },
[K_MEANSCALE] = { KERNEL, "void MeanScaleKernel<(unsigned int)64, (bool)0, "
    "__nv_bfloat16>(T3 *, signed char *, float *, float *, float, "
    UINTS11 ")", NULL, 9000, 2, {24, 1, 1}, {64, 1, 1}, 56, 1, 0, 0, NULL,
    NULL, 0 },
[K_SAGE] = { KERNEL, "void qk_int_sv_f8_attn_kernel<(unsigned int)128, "
    "(unsigned int)64, (unsigned int)32, (unsigned int)64, "
    "(unsigned int)128, (DataType)1, (QuantGranularity)2, "
    "(QuantGranularity)2, float, (bool)1, __nv_bfloat16, (ComputeUnit)1, "
    "(MaskMode)0, (bool)0, (bool)1, (bool)0, (bool)1>(signed char *, "
    "signed char *, signed char *, T11 *, float *, float *, float *, "
    "float *, float *, " UINTS11 ", unsigned int, unsigned int, "
    "unsigned int, unsigned int, float)", NULL, 420000, 4, {113, 24, 1},
    {128, 1, 1}, 128, 0, 48, 0, NULL, NULL, 0 },
[K_GATEADD] = { KERNEL, "void fused_residual_gate_add_kernel<__nv_bfloat16, "
    "(int)8>(T1 *, const T1 *, const T1 *, const T1 *, long, int)", NULL,
    10000, 2, {3600, 1, 1}, {256, 1, 1}, 28, 0, 0, 0, NULL, NULL, 0 },
[K_SSGATEADD] = { KERNEL, "void scale_shift_gate_add_kernel<__nv_bfloat16, "
    "float, (int)8>(T1 *, const T1 *, const T2 *, const T2 *, const T2 *, "
    "long, int)", NULL, 11000, 2, {3600, 1, 1}, {256, 1, 1}, 32, 0, 0, 0,
    NULL, NULL, 0 },
[K_MODULATE] = { KERNEL, "void at::native::elementwise_kernel<(int)128, "
    "(int)4, at::native::gpu_kernel_impl_nocast<at::native::<unnamed>::"
    "addcmul_cuda_kernel(at::TensorIteratorBase &, const c10::Scalar &)::"
    "[lambda() (instance 1)]::operator ()() const::[lambda() (instance 8)]"
    "::operator ()() const::[lambda(c10::BFloat16, c10::BFloat16, "
    "c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::"
    "[lambda(int) (instance 1)]>(int, T3)", NULL, 11000, 2, {3600, 1, 1},
    {128, 1, 1}, 26, 0, 0, 0, NULL, NULL, 0 },
[K_GELU] = { KERNEL, VEC4 "at::native::GeluCUDAKernelImpl("
    "at::TensorIteratorBase &, at::native::GeluType)::[lambda() "
    "(instance 2)]::operator ()() const::[lambda() (instance 4)]::"
    "operator ()() const::[lambda(c10::BFloat16) (instance 1)], " ARR2,
    NULL, 30000, 2, {14400, 1, 1}, {128, 1, 1}, 24, 0, 0, 0, NULL, NULL,
    0 },
[K_COPY] = { KERNEL, "void at::native::unrolled_elementwise_kernel<"
    "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::"
    "[lambda() (instance 3)]::operator ()() const::[lambda() "
    "(instance 12)]::operator ()() const::[lambda(c10::BFloat16) "
    "(instance 1)], std::array<char *, (unsigned long)2>, (int)4, "
    "TrivialOffsetCalculator<(int)1, unsigned int>, "
    "TrivialOffsetCalculator<(int)1, unsigned int>, "
    "at::native::memory::LoadWithCast<(int)1>, "
    "at::native::memory::StoreWithCast<(int)1>>(int, T1, T2, T4, T5, T6, "
    "T7)", NULL, 16000, 2, {7200, 1, 1}, {128, 1, 1}, 30, 0, 0, 0, NULL,
    NULL, 0 },
[K_FLASH] = { KERNEL, "void pytorch_flash::flash_fwd_kernel<"
    "Flash_fwd_kernel_traits<(int)128, (int)128, (int)64, (int)4, "
    "(bool)0, (bool)0, cutlass::bfloat16_t, Flash_kernel_traits<(int)128, "
    "(int)128, (int)64, (int)4, cutlass::bfloat16_t>>, (bool)0, (bool)0, "
    "(bool)0, (bool)0, (bool)1, (bool)1, (bool)0, (bool)0>("
    "pytorch_flash::Flash_fwd_params)", NULL, 900000, 4, {113, 24, 1},
    {128, 1, 1}, 255, 0, 48, 0, NULL, NULL, 0 },
[K_SOFTMAX] = { KERNEL, "void at::native::<unnamed>::cunn_SoftMaxForward<"
    "(int)4, c10::BFloat16, float, c10::BFloat16, at::native::<unnamed>::"
    "SoftMaxForwardEpilogue>(T4 *, const T2 *, int)", NULL, 6000, 0,
    {512, 1, 1}, {1024, 1, 1}, 32, 0, 0, 0, NULL, NULL, 0 },
[K_SIN] = { KERNEL, VEC4 "at::native::sin_kernel_cuda("
    "at::TensorIteratorBase &)::[lambda() (instance 2)]::operator ()() "
    "const::[lambda() (instance 2)]::operator ()() const::[lambda(float) "
    "(instance 1)], " ARR2, NULL, 1700, 0, {1, 1, 1}, {128, 1, 1}, 20, 0, 0,
    0, NULL, NULL, 0 },
[K_SILU] = { KERNEL, VEC4 "at::native::<unnamed>::silu_kernel("
    "at::TensorIteratorBase &)::[lambda() (instance 1)]::operator ()() "
    "const::[lambda() (instance 4)]::operator ()() const::[lambda("
    "c10::BFloat16) (instance 1)], " ARR2, NULL, 1900, 0, {2, 1, 1},
    {128, 1, 1}, 20, 0, 0, 0, NULL, NULL, 0 },
[K_BF16GEMM] = { KERNEL, "void cutlass::Kernel2<cutlass_80_tensorop_bf16_"
    "s16816gemm_relu_bf16_64x64_32x6_tn_align8>(T1::Params)", NULL, 14000, 0,
    {48, 1, 1}, {128, 1, 1}, 232, 0, 82, 0, NULL, NULL, 0 },
[K_NEARGEMM] = { KERNEL, "void cutlass::device_kernel<cutlass3x_sm120_"
    "tensorop_s16816gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_0_tnn_"
    "align8_warpspecialized_cooperative_epi_tma>(T1::Params)", NULL, 70000,
    2, {170, 1, 1}, {384, 1, 1}, 168, 0, 99, 1, NULL, NULL, 0 },
[K_XMMA] = { KERNEL, "sm120_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_"
    "tilesize128x128x64_stage4_warpsize2x2x1_tensor16x8x16_kernel", NULL,
    50000, 2, {226, 1, 1}, {256, 1, 1}, 210, 0, 98, 0, NULL, NULL, 0 },
[K_FILLBF16] = { KERNEL, VEC4 "at::native::FillFunctor<c10::BFloat16>, "
    "std::array<char *, (unsigned long)1>>(int, T2, T3)", NULL, 2500, 2,
    {900, 1, 1}, {128, 1, 1}, 16, 0, 0, 0, NULL, NULL, 0 },
[K_MEANF32] = { KERNEL, "void at::native::reduce_kernel<(int)512, (int)1, "
    "at::native::ReduceOp<float, at::native::MeanOps<float, float, float, "
    "float>, unsigned int, float, (int)4, (int)4>>(T3)", NULL, 4000, 0,
    {64, 1, 1}, {32, 16, 1}, 40, 0, 0, 0, NULL, NULL, 0 },
[K_APPLYROPE] = { KERNEL, "void vllm::apply_rope_inplace<c10::BFloat16, "
    "(bool)1>(T1 *, const float *, int, int, int)", NULL, 8000, 2,
    {3600, 1, 1}, {128, 1, 1}, 34, 0, 0, 0, NULL, NULL, 0 },
[K_TRITON] = { KERNEL, "triton_poi_fused__to_copy_add_mul_silu_0", NULL,
    6000, 2, {7200, 1, 1}, {128, 1, 1}, 24, 0, 0, 0, NULL, NULL, 0 },
[K_QUOTED] = { KERNEL, "void jitify::fused_kernel<\"silu_mul\", (int)4, "
    "__nv_bfloat16>(T3 *, const T3 *, int)", NULL, 7000, 2, {3600, 1, 1},
    {128, 1, 1}, 22, 0, 0, 0, NULL, NULL, 0 },
[K_NEWLINE] = { KERNEL, "triton_per_fused_add_mean_mul_0\n"
    "// from \"/tmp/torchinductor_root/cab.py\", line 18", NULL, 3000, 0,
    {64, 1, 1}, {512, 1, 1}, 26, 0, 0, 0, NULL, NULL, 0 },
[K_MAXRED] = { KERNEL, "void at::native::reduce_kernel<(int)512, (int)1, "
    "at::native::ReduceOp<float, at::native::MaxOps<float>, unsigned int, "
    "float, (int)4, (int)4>>(T3)", NULL, 5000, 2, {256, 1, 1}, {32, 16, 1},
    40, 0, 0, 0, NULL, NULL, 0 },
[K_MUL] = { KERNEL, VEC4 "at::native::AUnaryFunctor<float, float, float, "
    "at::native::binary_internal::MulFunctor<float>>, " ARR2, NULL, 3000, 2,
    {900, 1, 1}, {128, 1, 1}, 18, 0, 0, 0, NULL, NULL, 0 },
[K_ADD] = { KERNEL, VEC4 "at::native::CUDAFunctor_add<float>, "
    "std::array<char *, (unsigned long)3>>(int, T2, T3)", NULL, 3200, 2,
    {900, 1, 1}, {128, 1, 1}, 20, 0, 0, 0, NULL, NULL, 0 },
[K_NCCL] = { KERNEL, "ncclDevKernel_AllGather_RING_LL(ncclDevComm *, "
    "unsigned long, ncclWork *)", NULL, 60000, 2, {24, 1, 1}, {512, 1, 1},
    96, 0, 0, 0, NULL, NULL, 0 },
[M_H2D_PAGEABLE] = { MEMCPY, "[CUDA memcpy Host-to-Device]",
    "[CUDA memcpy HtoD]", 0, 0, {0}, {0}, 0, 0, 0, 0, "Pageable", "Device",
    8000 },
[M_H2D_PINNED] = { MEMCPY, "[CUDA memcpy Host-to-Device]",
    "[CUDA memcpy HtoD]", 0, 0, {0}, {0}, 0, 0, 0, 0, "Pinned", "Device",
    25000 },
[M_D2H_PINNED] = { MEMCPY, "[CUDA memcpy Device-to-Host]",
    "[CUDA memcpy DtoH]", 0, 0, {0}, {0}, 0, 0, 0, 0, "Device", "Pinned",
    25000 },
[M_D2H_PAGEABLE] = { MEMCPY, "[CUDA memcpy Device-to-Host]",
    "[CUDA memcpy DtoH]", 0, 0, {0}, {0}, 0, 0, 0, 0, "Device", "Pageable",
    7000 },
[M_D2D] = { MEMCPY, "[CUDA memcpy Device-to-Device]",
    "[CUDA memcpy DtoD]", 0, 0, {0}, {0}, 0, 0, 0, 0, "Device", "Device",
    700000 },
[M_MEMSET] = { MEMSET, "[CUDA memset]", NULL, 0, 0, {0}, {0}, 0, 0, 0, 0,
    "Device", NULL, 1500000 },
};

/* One step of a script: an operation, its stream, how it waits. */
struct op {
	int		 what;		/* index into opdefs */
	enum stream	 stream;
	int		 flags;
	uint64_t	 bytes;		/* size of a memcpy or memset */
};

/* The part of a block before attention. */
static const struct op block_head[] = {
	{ K_MEANOPS, S_MAIN, 0, 0 },
	{ K_LNORM, S_MAIN, 0, 0 },
	{ K_MODULATE, S_MAIN, 0, 0 },
	{ K_ABSMAX, S_MAIN, 0, 0 },
	{ K_FSCALE, S_MAIN, 0, 0 },
	{ K_FILLU8, S_MAIN, 0, 0 },
	{ K_QNVFP4, S_MAIN, 0, 0 },
	{ K_GEMMQKV, S_MAIN, 0, 0 },
	{ K_FILLU8, S_SIDE, F_NEST, 0 },
	{ K_ROPE, S_MAIN, 0, 0 },
	{ END, 0, 0, 0 }
};

/* SageAttention2: V is transposed and scaled on S_AUX beside Q and K. */
static const struct op attn_sage2[] = {
	{ K_TPP, S_AUX, F_FORK, 0 },
	{ K_QUANTQ, S_MAIN, F_NOGAP, 0 },
	{ K_MEANSCALE, S_AUX, 0, 0 },
	{ K_QUANTK, S_MAIN, 0, 0 },
	{ K_SAGE, S_MAIN, F_JOIN, 0 },
	{ END, 0, 0, 0 }
};

/* PyTorch SDPA: a contiguous copy of V on S_AUX, then flash attention. */
static const struct op attn_sdpa[] = {
	{ K_COPY, S_AUX, F_FORK, 0 },
	{ K_APPLYROPE, S_MAIN, F_NOGAP, 0 },
	{ K_FLASH, S_MAIN, F_JOIN, 0 },
	{ END, 0, 0, 0 }
};

/* The part of a block after attention. */
static const struct op block_tail[] = {
	{ K_ABSMAX, S_MAIN, 0, 0 },
	{ K_FSCALE, S_MAIN, 0, 0 },
	{ K_QNVFP4SWZ, S_MAIN, 0, 0 },
	{ K_GEMMOUT, S_MAIN, 0, 0 },
	{ K_GATEADD, S_MAIN, 0, 0 },
	{ K_MEANOPS, S_MAIN, 0, 0 },
	{ K_LNORM, S_MAIN, 0, 0 },
	{ K_MODULATE, S_MAIN, 0, 0 },
	{ K_ABSMAX, S_MAIN, 0, 0 },
	{ K_FSCALE, S_MAIN, 0, 0 },
	{ K_FILLU8, S_MAIN, F_NOGAP, 0 },
	{ K_QNVFP4, S_MAIN, 0, 0 },
	{ K_GEMMFF1, S_MAIN, 0, 0 },
	{ M_MEMSET, S_SIDE, F_NEST, 1 << 20 },
	{ K_GELU, S_MAIN, 0, 0 },
	{ K_ABSMAX, S_MAIN, 0, 0 },
	{ K_FSCALE, S_MAIN, 0, 0 },
	{ K_QNVFP4, S_MAIN, 0, 0 },
	{ K_GEMMFF2, S_MAIN, 0, 0 },
	{ K_SSGATEADD, S_MAIN, 0, 0 },
	{ END, 0, 0, 0 }
};

/* Before the blocks of a step: sync, timestep in, timestep embedding. */
static const struct op step_head[] = {
	{ SYNC, S_MAIN, 0, 0 },
	{ M_H2D_PAGEABLE, S_MAIN, 0, 8 },
	{ K_SIN, S_MAIN, 0, 0 },
	{ K_QUOTED, S_AUX, F_FORK, 0 },
	{ K_BF16GEMM, S_MAIN, F_NOGAP, 0 },
	{ K_SILU, S_MAIN, 0, 0 },
	{ K_BF16GEMM, S_MAIN, F_JOIN, 0 },
	{ M_MEMSET, S_SIDE, 0, 65536 },
	{ K_SOFTMAX, S_MAIN, 0, 0 },
	{ END, 0, 0, 0 }
};

/* After the blocks: output projection, scheduler update, a flag out. */
static const struct op step_tail[] = {
	{ K_LNORM, S_MAIN, 0, 0 },
	{ K_MODULATE, S_MAIN, 0, 0 },
	{ K_XMMA, S_MAIN, 0, 0 },
	{ K_NEWLINE, S_MAIN, 0, 0 },
	{ K_MUL, S_MAIN, 0, 0 },
	{ K_ADD, S_MAIN, 0, 0 },
	{ M_D2D, S_MAIN, 0, 3 << 20 },
	{ M_D2H_PINNED, S_MAIN, F_BLOCK, 4 },
	{ END, 0, 0, 0 }
};

/* The start of the run: weights and text embeddings in, buffers zeroed. */
static const struct op run_head[] = {
	{ M_H2D_PINNED, S_MAIN, 0, 64 << 20 },
	{ M_H2D_PINNED, S_MAIN, 0, 48 << 20 },
	{ M_H2D_PAGEABLE, S_MAIN, 0, 1 << 20 },
	{ M_MEMSET, S_MAIN, 0, 16 << 20 },
	{ END, 0, 0, 0 }
};

/* The end of a run of whole steps: the latents back to the host. */
static const struct op run_tail[] = {
	{ M_D2H_PAGEABLE, S_MAIN, F_BLOCK, 6 << 20 },
	{ END, 0, 0, 0 }
};

/* Kernels now and then inserted after an operation of a block. */
static const int extras[] = {
	K_COPY, K_SOFTMAX, K_FILLBF16, K_MEANF32, K_APPLYROPE, K_XMMA,
	K_TRITON, K_QUOTED, K_NEARGEMM
};

/* A GPU operation generated and not yet written. */
struct ev {
	int64_t		 key;		/* start, or API start in launchq */
	uint64_t	 seq;		/* order of generation, breaks ties */
	int64_t		 start, dur;
	int64_t		 api_start, api_dur;
	uint64_t	 bytes;
	uint32_t	 corr;
	uint32_t	 grid_x;	/* opdef's, scaled by the resolution */
	uint16_t	 what;
	uint8_t		 stream, tid;
};

/* A min-heap of events by (key, seq): the reorder buffer of a file. */
struct heap {
	struct ev	*v;
	size_t		 n, cap;
};

/* A file being written, through a buffer. */
struct out {
	int		 fd;
	char		*path;
	char		*buf;
	size_t		 len;
};

static const char *gpu_header24[] = {
	"Start (ns)", "Duration (ns)", "CorrId", "GrdX", "GrdY", "GrdZ",
	"BlkX", "BlkY", "BlkZ", "Reg/Trd", "StcSMem (MB)", "DymSMem (MB)",
	"Bytes (MB)", "Throughput (MB/s)", "SrcMemKd", "DstMemKd", "Device",
	"Ctx", "GreenCtx", "Strm", "Name", NULL
};
static const char *gpu_header22[] = {
	"Start (ns)", "Duration (ns)", "CorrId", "GrdX", "GrdY", "GrdZ",
	"BlkX", "BlkY", "BlkZ", "Reg/Trd", "StcSMem (MB)", "DymSMem (MB)",
	"Bytes (MB)", "Throughput (MBps)", "SrcMemKd", "DstMemKd", "Device",
	"Ctx", "Strm", "Name", NULL
};
static const char *kexec_header[] = {
	"API Start (ns)", "API Dur (ns)", "Queue Start (ns)", "Queue Dur (ns)",
	"Kernel Start (ns)", "Kernel Dur (ns)", "Total Dur (ns)", "PID", "TID",
	"DevId", "API Function", "GridXYZ", "BlockXYZ", "Kernel Name", NULL
};

/* CUDA stream numbers of enum stream, as nsys shows them. */
static const unsigned stream_ids[NSTREAMS] = { 7, 14, 18, 22 };
static const char device_name[] = "NVIDIA GeForce RTX 5090 (0)";

static int quote_all;		/* -m quoted */
static const char *eol = "\n";	/* "\r\n" with -m crlf */
static size_t eol_len = 1;
static int v2022;		/* -v 2022 */
static const char *null_field;	/* a NULL value: "" or "None" */
static char *enc_name[NOPDEFS];	/* each opdef's name as a CSV field */
static size_t enc_len[NOPDEFS];

static unsigned ncopies;	/* -c: copies per block */
static int64_t launch_bound;	/* -L: CPU work before each launch, ns */
static int nccl;		/* -N: an NCCL kernel per block */
static uint64_t rng;		/* splitmix64 state */
static unsigned f2, f4;		/* resolution factors, thousandths */
static int64_t cpu[2];		/* where each launching thread is, ns */
static int64_t strm_end[NSTREAMS];	/* when each stream runs dry */
static int64_t main_start, main_dur;	/* the last op on S_MAIN */
static uint32_t corr;		/* the last correlation id handed out */
static uint64_t seq;		/* events generated */
static uint64_t kernels_left;	/* kernels still to write with -n */
static int by_count;		/* kernels, not steps, say when to stop */
static int done;		/* -n kernels are written */
static unsigned pid;		/* the process, and its main thread */
static struct heap gpuq;	/* operations waiting for the GPU trace */
static struct heap launchq;	/* kernels waiting for the kern exec trace */
static struct out gpu_out, kexec_out;

/* The synopsis, as the manual's, on fp. */
static void
synopsis(FILE *fp)
{
	fputs("usage: gentrace "
	    "[-Nh] [-a sage2|sdpa] [-c copies] [-L ns] [-l layers]\n"
	    "           [-m crlf|quoted] [-n kernels | -t steps] [-r height] "
	    "[-s seed]\n"
	    "           [-v 2024|2022] -o dir/prefix\n", fp);
}

/* A usage error: the synopsis on stderr, exit 2. */
static void
usage(void)
{
	synopsis(stderr);
	exit(2);
}

/* -h and --help: the synopsis, what gentrace does and its knobs, a line
   each, on stdout; exit 0. */
static void
help(void)
{
	synopsis(stdout);
	fputs("\nWrite a synthetic pair of nsys stats CSV traces.\n\n"
	    "  -a sage2|sdpa   attention: SageAttention2 (default) or flash "
	    "SDPA, in other\n"
	    "  -c copies       8 MB host-to-GPU copies per block, 0 to 8 "
	    "(default 0)\n"
	    "  -h, --help      print this help and exit\n"
	    "  -L ns           CPU work before each launch: a launch-bound "
	    "run (default 0)\n"
	    "  -l layers       transformer blocks per step (default 28)\n"
	    "  -m crlf|quoted  end lines with CR LF, or quote every field\n"
	    "  -N              an NCCL all-gather kernel in each block\n"
	    "  -n kernels      stop after this many kernels (default 1000)\n"
	    "  -o dir/prefix   where the two files go; dir must exist\n"
	    "  -r height       video height in pixels (default 720)\n"
	    "  -s seed         seed of the pseudo-random numbers (default 1)\n"
	    "  -t steps        this many whole steps instead of -n kernels\n"
	    "  -v 2024|2022    as nsys 2023.4 and later write (default), or "
	    "as 2022.4\n"
	    "\nManual: man -l tests/gentrace.1\n", stdout);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	exit(0);
}

/* The next pseudo-random number: splitmix64, the same on every machine. */
static uint64_t
rnd(void)
{
	uint64_t z;

	z = (rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number from lo to hi, both included. */
static int64_t
uniform(int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static int
chance(unsigned permille)
{
	return rnd() % 1000 < permille;
}

static int64_t
max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static uint64_t
number(const char *s, uint64_t lo, uint64_t hi, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v < lo ||
	    v > hi) {
		warnx("%s must be a number from %" PRIu64 " to %" PRIu64 ": %s",
		    what, lo, hi, s);
		usage();
	}
	return v;
}

static int
evless(const struct ev *a, const struct ev *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static void
heap_push(struct heap *h, const struct ev *e)
{
	size_t i, up;

	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 1024;
		if ((h->v = reallocarray(h->v, h->cap, sizeof(*h->v))) == NULL)
			err(1, NULL);
	}
	for (i = h->n++; i > 0; i = up) {
		up = (i - 1) / 2;
		if (!evless(e, &h->v[up]))
			break;
		h->v[i] = h->v[up];
	}
	h->v[i] = *e;
}

static void
heap_pop(struct heap *h, struct ev *e)
{
	struct ev last;
	size_t i, c;

	*e = h->v[0];
	last = h->v[--h->n];
	for (i = 0; (c = 2 * i + 1) < h->n; i = c) {
		if (c + 1 < h->n && evless(&h->v[c + 1], &h->v[c]))
			c++;
		if (!evless(&h->v[c], &last))
			break;
		h->v[i] = h->v[c];
	}
	h->v[i] = last;
}

static void
out_open(struct out *o, const char *prefix, const char *suffix)
{
	if (asprintf(&o->path, "%s%s", prefix, suffix) == -1)
		err(1, NULL);
	if ((o->fd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) == -1)
		err(1, "%s", o->path);
	if ((o->buf = malloc(OBUFSZ)) == NULL)
		err(1, NULL);
	o->len = 0;
}

static void
out_flush(struct out *o)
{
	size_t off;
	ssize_t n;

	for (off = 0; off < o->len; off += n) {
		n = write(o->fd, o->buf + off, o->len - off);
		if (n == -1 && errno == EINTR)
			n = 0;
		else if (n == -1)
			err(1, "%s", o->path);
	}
	o->len = 0;
}

static void
out_close(struct out *o)
{
	out_flush(o);
	if (close(o->fd) == -1)
		err(1, "%s", o->path);
	free(o->buf);
	free(o->path);
}

/* Make room for n more bytes; no single write exceeds OBUFSZ. */
static char *
out_room(struct out *o, size_t n)
{
	if (o->len + n > OBUFSZ)
		out_flush(o);
	return o->buf + o->len;
}

static void
out_mem(struct out *o, const char *s, size_t n)
{
	memcpy(out_room(o, n), s, n);
	o->len += n;
}

/* Write v in decimal, at least width digits wide, padded with c. */
static void
out_pad(struct out *o, uint64_t v, int width, char c)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do
		*--p = '0' + v % 10;
	while ((v /= 10) != 0);
	while (tmp + sizeof(tmp) - p < width)
		*--p = c;
	out_mem(o, p, tmp + sizeof(tmp) - p);
}

static void
fld_open(struct out *o)
{
	if (quote_all)
		out_mem(o, "\"", 1);
}

static void
fld_close(struct out *o)
{
	out_mem(o, quote_all ? "\"," : ",", quote_all ? 2 : 1);
}

static void
fld_u64(struct out *o, uint64_t v)
{
	fld_open(o);
	out_pad(o, v, 1, '0');
	fld_close(o);
}

/* A number of thousandths, written with three decimals as nsys does. */
static void
fld_milli(struct out *o, uint64_t v)
{
	fld_open(o);
	out_pad(o, v / 1000, 1, '0');
	out_mem(o, ".", 1);
	out_pad(o, v % 1000, 3, '0');
	fld_close(o);
}

/* A text field that needs no quotes: no comma, quote or newline. */
static void
fld_str(struct out *o, const char *s)
{
	fld_open(o);
	out_mem(o, s, strlen(s));
	fld_close(o);
}

/* Three numbers as nsys writes GridXYZ and BlockXYZ: "%4u %4u %4u". */
static void
fld_xyz(struct out *o, unsigned x, unsigned y, unsigned z)
{
	fld_open(o);
	out_pad(o, x, 4, ' ');
	out_mem(o, " ", 1);
	out_pad(o, y, 4, ' ');
	out_mem(o, " ", 1);
	out_pad(o, z, 4, ' ');
	fld_close(o);
}

/* The last field of a row, a name already encoded, and the line end. */
static void
fld_last(struct out *o, int what)
{
	out_mem(o, enc_name[what], enc_len[what]);
	out_mem(o, eol, eol_len);
}

/* Quote a field that holds a comma, quote or line end, or every field. */
static char *
csv_encode(const char *s, size_t *lenp)
{
	char *buf, *p;

	if ((buf = malloc(2 * strlen(s) + 3)) == NULL)
		err(1, NULL);
	p = buf;
	if (quote_all || strpbrk(s, ",\"\r\n") != NULL) {
		*p++ = '"';
		for (; *s != '\0'; s++) {
			if (*s == '"')
				*p++ = '"';
			*p++ = *s;
		}
		*p++ = '"';
	} else
		p = stpcpy(p, s);
	*p = '\0';
	*lenp = p - buf;
	return buf;
}

static void
put_header(struct out *o, const char **cols)
{
	size_t i;

	for (i = 0; cols[i + 1] != NULL; i++)
		fld_str(o, cols[i]);
	fld_open(o);
	out_mem(o, cols[i], strlen(cols[i]));
	if (quote_all)
		out_mem(o, "\"", 1);
	out_mem(o, eol, eol_len);
}

static void
put_gpu_row(const struct ev *e)
{
	const struct opdef *d = &opdefs[e->what];
	struct out *o = &gpu_out;
	int i;

	fld_u64(o, e->start);
	fld_u64(o, e->dur);
	fld_u64(o, e->corr);
	if (d->kind == KERNEL) {
		fld_u64(o, e->grid_x);
		fld_u64(o, d->grid[1]);
		fld_u64(o, d->grid[2]);
		fld_u64(o, d->block[0]);
		fld_u64(o, d->block[1]);
		fld_u64(o, d->block[2]);
		fld_u64(o, d->regs);
		fld_milli(o, d->smem_s);
		fld_milli(o, d->smem_d);
		fld_str(o, null_field);		/* Bytes */
		fld_str(o, "");			/* Throughput */
		fld_str(o, null_field);		/* SrcMemKd */
		fld_str(o, null_field);		/* DstMemKd */
	} else {
		for (i = 0; i < 9; i++)
			fld_str(o, null_field);
		fld_milli(o, (e->bytes + 500) / 1000);
		fld_milli(o, (e->bytes * 1000000 + e->dur / 2) / e->dur);
		fld_str(o, d->src);
		fld_str(o, d->dst != NULL ? d->dst : null_field);
	}
	fld_str(o, device_name);
	fld_u64(o, 1);
	if (!v2022)
		fld_str(o, "");			/* GreenCtx */
	fld_u64(o, stream_ids[e->stream]);
	fld_last(o, e->what);
}

static void
put_launch_row(const struct ev *e)
{
	const struct opdef *d = &opdefs[e->what];
	struct out *o = &kexec_out;
	int64_t api_end = e->api_start + e->api_dur;

	fld_u64(o, e->api_start);
	fld_u64(o, e->api_dur);
	if (e->start >= api_end) {
		fld_u64(o, api_end);
		fld_u64(o, e->start - api_end);
	} else {
		fld_str(o, null_field);
		fld_str(o, null_field);
	}
	fld_u64(o, e->start);
	fld_u64(o, e->dur);
	fld_u64(o, e->start + e->dur - e->api_start);
	fld_u64(o, pid);
	fld_u64(o, pid + 37 * e->tid);
	fld_u64(o, 0);
	fld_str(o, d->launchex ? "cuLaunchKernelEx" : "cudaLaunchKernel");
	fld_xyz(o, e->grid_x, d->grid[1], d->grid[2]);
	fld_xyz(o, d->block[0], d->block[1], d->block[2]);
	fld_last(o, e->what);
}

/*
 * Write what can no longer be preceded: no future launch call starts
 * before api_bound, and no work on the GPU before LAT_MIN after that.
 */
static void
drain(int64_t api_bound)
{
	struct ev e;

	while (launchq.n > 0 && launchq.v[0].key < api_bound) {
		heap_pop(&launchq, &e);
		put_launch_row(&e);
	}
	while (gpuq.n > 0 && gpuq.v[0].key < api_bound + LAT_MIN) {
		heap_pop(&gpuq, &e);
		put_gpu_row(&e);
	}
}

/* The earliest a future launch call of either thread can start. */
static int64_t
api_lower_bound(void)
{
	int64_t t1;

	t1 = max64(cpu[1], cpu[0] - T1_LAG);
	return t1 < cpu[0] ? t1 : cpu[0];
}

static int64_t
duration(const struct opdef *d, uint64_t bytes)
{
	int64_t ns;

	if (d->kind == KERNEL) {
		ns = d->base_ns;
		if (d->scale == 2)
			ns = ns * f2 / 1000;
		else if (d->scale == 4)
			ns = ns * f4 / 1000;
	} else
		ns = 1200 + (int64_t)(bytes * 1000 / d->bw);
	ns = ns * uniform(900, 1100) / 1000;
	return ns > 0 ? ns : 1;
}

/* The idle time a stream leaves between two operations. */
static int64_t
stream_gap(void)
{
	uint64_t r = rnd() % 10;

	if (r < 3)
		return 0;
	if (r < 9)
		return uniform(600, 2000);
	return uniform(2000, 8000);
}

/* Launch op from thread tid: time its API call and its run on the GPU. */
static void
issue(int tid, const struct op *op)
{
	const struct opdef *d;
	struct ev e;
	int64_t lat, host;
	int s;

	if (done)
		return;
	if (op->what == SYNC) {
		for (s = 0; s < NSTREAMS; s++)
			cpu[tid] = max64(cpu[tid], strm_end[s]);
		cpu[tid] += uniform(300000, 2000000);
		return;
	}
	d = &opdefs[op->what];
	memset(&e, 0, sizeof(e));
	e.what = op->what;
	e.stream = op->stream;
	e.tid = tid;
	e.bytes = op->bytes;
	e.seq = ++seq;
	host = chance(20) ? uniform(20000, 150000) : uniform(800, 4000);
	if (tid == 0)
		host += launch_bound;
	if (tid == 1)
		cpu[1] = max64(cpu[1], cpu[0] - uniform(0, T1_LAG));
	e.api_start = cpu[tid] + host;
	e.api_dur = uniform(2500, 7000) + (d->launchex ? 1500 : 0);
	if (gpuq.n >= QDEPTH)
		e.api_dur = max64(e.api_dur,
		    gpuq.v[0].start - e.api_start + uniform(300, 2500));
	cpu[tid] = e.api_start + e.api_dur;
	corr += 1 + (chance(250) ? uniform(1, 3) : 0);
	e.corr = corr;

	lat = uniform(LAT_MIN, LAT_MIN + 4000);
	e.start = max64(e.api_start + lat, strm_end[op->stream] +
	    (op->flags & F_NOGAP ? 0 : stream_gap()));
	if (op->flags & F_FORK)
		e.start = max64(e.start, strm_end[S_MAIN]);
	if (op->flags & F_JOIN)
		e.start = max64(e.start, strm_end[S_AUX]);
	if (op->flags & F_NEST)
		e.start = max64(e.start,
		    main_start + uniform(1, max64(1, main_dur / 2)));
	e.dur = duration(d, op->bytes);
	e.grid_x = d->grid[0];
	if (d->scale > 0)
		e.grid_x = max64(1, (int64_t)d->grid[0] * f2 / 1000);
	strm_end[op->stream] = e.start + e.dur;
	if (op->stream == S_MAIN) {
		main_start = e.start;
		main_dur = e.dur;
	}
	if (op->flags & F_BLOCK)
		cpu[tid] = max64(cpu[tid], e.start + e.dur) + uniform(1000, 5000);

	e.key = e.start;
	heap_push(&gpuq, &e);
	if (d->kind == KERNEL) {
		e.key = e.api_start;
		heap_push(&launchq, &e);
		if (by_count && --kernels_left == 0)
			done = 1;
	}
	drain(api_lower_bound());
}

/* Launch a script from the main thread, and now and then the other's. */
static void
run_script(const struct op *script, int extra)
{
	static const struct op nancheck[] = {
		{ K_MAXRED, S_T1, 0, 0 },
		{ M_D2H_PINNED, S_T1, 0, 4096 },
		{ END, 0, 0, 0 }
	};
	const struct op *op;
	struct op x = { 0, S_MAIN, 0, 0 };

	for (op = script; op->what != END; op++) {
		issue(0, op);
		if (extra && chance(30)) {
			x.what = extras[rnd() % (sizeof(extras) /
			    sizeof(extras[0]))];
			issue(0, &x);
		}
		if (chance(5)) {
			issue(1, &nancheck[0]);
			issue(1, &nancheck[1]);
		}
	}
}

/* What -c and -N add to a block after its head: copies, an NCCL kernel. */
static struct op block_extra[] = {
	{ END, 0, 0, 0 }, { END, 0, 0, 0 }, { END, 0, 0, 0 }, { END, 0, 0, 0 },
	{ END, 0, 0, 0 }, { END, 0, 0, 0 }, { END, 0, 0, 0 }, { END, 0, 0, 0 },
	{ END, 0, 0, 0 }, { END, 0, 0, 0 }
};

static void
generate(const char *attn, unsigned layers, unsigned steps)
{
	const struct op *attention;
	unsigned step, layer;

	attention = strcmp(attn, "sage2") == 0 ? attn_sage2 : attn_sdpa;
	run_script(run_head, 0);
	for (step = 0; by_count ? !done : step < steps; step++) {
		run_script(step_head, 0);
		for (layer = 0; layer < layers && !done; layer++) {
			run_script(block_head, 1);
			run_script(block_extra, 0);
			run_script(attention, 1);
			run_script(block_tail, 1);
		}
		run_script(step_tail, 0);
	}
	if (!by_count)
		run_script(run_tail, 0);
	drain(INT64_MAX - LAT_MIN);
}

int
main(int argc, char *argv[])
{
	const char *attn = "sage2", *prefix = NULL, *mode = NULL;
	const char *version = "2024";
	uint64_t seed = 1, kernels = 1000, steps = 0;
	unsigned layers = 28, height = 720;
	int ch, i, nflag = 0;

	/* getopt takes no long option: --help is looked for first. */
	if (argc > 1 && strcmp(argv[1], "--help") == 0)
		help();
	while ((ch = getopt(argc, argv, "Na:c:hL:l:m:n:o:r:s:t:v:")) != -1) {
		switch (ch) {
		case 'N':
			nccl = 1;
			break;
		case 'c':
			ncopies = number(optarg, 0, 8, "copies");
			break;
		case 'L':
			launch_bound = number(optarg, 0, 1000000000, "ns");
			break;
		case 'a':
			attn = optarg;
			break;
		case 'h':
			help();
			break;
		case 'l':
			layers = number(optarg, 1, 1000, "layers");
			break;
		case 'm':
			mode = optarg;
			break;
		case 'n':
			kernels = number(optarg, 1, UINT32_MAX, "kernels");
			nflag = 1;
			break;
		case 'o':
			prefix = optarg;
			break;
		case 'r':
			height = number(optarg, 64, 8640, "height");
			break;
		case 's':
			seed = number(optarg, 0, UINT64_MAX, "seed");
			break;
		case 't':
			steps = number(optarg, 1, 100000, "steps");
			break;
		case 'v':
			version = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || prefix == NULL)
		usage();
	if (nflag && steps > 0) {
		warnx("-n and -t exclude each other");
		usage();
	}
	if (strcmp(attn, "sage2") != 0 && strcmp(attn, "sdpa") != 0) {
		warnx("attention must be sage2 or sdpa: %s", attn);
		usage();
	}
	if (mode != NULL && strcmp(mode, "crlf") == 0) {
		eol = "\r\n";
		eol_len = 2;
	} else if (mode != NULL && strcmp(mode, "quoted") == 0)
		quote_all = 1;
	else if (mode != NULL) {
		warnx("mode must be crlf or quoted: %s", mode);
		usage();
	}
	if (strcmp(version, "2022") == 0)
		v2022 = 1;
	else if (strcmp(version, "2024") != 0) {
		warnx("version must be 2024 or 2022: %s", version);
		usage();
	}
	by_count = steps == 0;
	kernels_left = kernels;
	for (i = 0; i < (int)ncopies; i++) {
		block_extra[i].what = M_H2D_PINNED;
		block_extra[i].stream = S_SIDE;
		block_extra[i].bytes = 8 << 20;
	}
	if (nccl) {
		block_extra[i].what = K_NCCL;
		block_extra[i].stream = S_AUX;
	}

	null_field = v2022 ? "None" : "";
	for (i = 0; i < NOPDEFS; i++)
		enc_name[i] = csv_encode(v2022 && opdefs[i].name22 != NULL ?
		    opdefs[i].name22 : opdefs[i].name, &enc_len[i]);
	f2 = (uint64_t)height * height * 1000 / (720 * 720);
	f4 = (uint64_t)f2 * f2 / 1000;
	rng = seed;
	pid = uniform(2000, 90000);
	cpu[0] = cpu[1] = uniform(1000000000, 2000000000);
	corr = uniform(100, 5000);

	out_open(&gpu_out, prefix, v2022 ? "_gputrace.csv" :
	    "_cuda_gpu_trace.csv");
	out_open(&kexec_out, prefix, v2022 ? "_kernexectrace.csv" :
	    "_cuda_kern_exec_trace.csv");
	put_header(&gpu_out, v2022 ? gpu_header22 : gpu_header24);
	put_header(&kexec_out, kexec_header);
	generate(attn, layers, steps);
	out_close(&gpu_out);
	out_close(&kexec_out);
	return 0;
}
