/* Every compiler-specific construct of the C core, each with a branch for
 * GCC and clang and one for MSVC (and a plain C fallback where one exists):
 * the target architecture and byte order, bit scans and population counts,
 * the CPU feature test and target attribute of the AVX2 kernel, and the
 * atomic pointer of the kernel dispatch. The rest of the core is C99. */
#ifndef PCT_PORTABLE_H
#define PCT_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#define PCT_MSVC 1
#include <intrin.h>
#endif

#if defined(__x86_64__) || defined(_M_X64)
#define PCT_X86_64 1
#endif
#if defined(__aarch64__) || defined(_M_ARM64)
#define PCT_AARCH64 1
#endif

/* Little-endian words: the lowest set bit is the first byte in memory.
 * Every target MSVC builds for is little-endian. */
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(PCT_MSVC)
#define PCT_LITTLE_ENDIAN 1
#endif

/* Index of the lowest set bit; x is not 0. */
static inline unsigned pct_ctz32(uint32_t x)
{
#if defined(PCT_MSVC)
    unsigned long i;
    _BitScanForward(&i, x);
    return (unsigned)i;
#else
    return (unsigned)__builtin_ctz(x);
#endif
}

static inline unsigned pct_ctz64(uint64_t x)
{
#if defined(PCT_MSVC)
    unsigned long i;
    _BitScanForward64(&i, x);
    return (unsigned)i;
#else
    return (unsigned)__builtin_ctzll(x);
#endif
}

/* Index of the highest set bit; x is not 0. */
static inline unsigned pct_top64(uint64_t x)
{
#if defined(PCT_MSVC)
    unsigned long i;
    _BitScanReverse64(&i, x);
    return (unsigned)i;
#else
    return 63u - (unsigned)__builtin_clzll(x);
#endif
}

/* The bits below bit k (k <= 64) of a word. */
static inline uint64_t pct_bits_below(size_t k)
{
    return k >= 64 ? ~0ull : (1ull << k) - 1u;
}

/* Number of set bits in plain C: a dozen instructions inline, for scalar
 * code built without the POPCNT instruction (where the builtin is a call
 * into the compiler's library). */
static inline unsigned pct_popcount64_plain(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555u;
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    return (unsigned)((x * 0x0101010101010101u) >> 56);
}

/* Number of set bits. MSVC's __popcnt needs the POPCNT instruction, which
 * the SSE2 baseline does not have: there the count is done in plain C. */
static inline unsigned pct_popcount64(uint64_t x)
{
#if defined(PCT_MSVC)
    return pct_popcount64_plain(x);
#else
    return (unsigned)__builtin_popcountll(x);
#endif
}

static inline unsigned pct_popcount32(uint32_t x) { return pct_popcount64(x); }

/* A hint to bring the cache line `ahead` bytes past p in for reading (no
 * fault, no effect on results): for scans whose loop body is too long for
 * the CPU to keep enough loads of a stream in flight. The address may lie
 * past the buffer, so it is computed as an integer, not a pointer. */
static inline void pct_prefetch_ahead(const void *p, size_t ahead)
{
#if defined(PCT_MSVC)
    (void)p;
    (void)ahead;
#else
    __builtin_prefetch((const void *)((uintptr_t)p + ahead), 0, 3);
#endif
}

#ifdef PCT_X86_64
/* The AVX2 kernel's functions are compiled for AVX2 and POPCNT alone (GCC and
 * clang need the attribute to emit them; MSVC emits any intrinsic), and run
 * only where the CPU and the OS support AVX2. */
#if defined(PCT_MSVC)
#define PCT_TARGET_AVX2
static inline int pct_cpu_avx2(void)
{
    int r[4];
    __cpuid(r, 0);
    if (r[0] < 7)
        return 0;
    __cpuid(r, 1);
    /* ECX: POPCNT (23), OSXSAVE (27), AVX (28) */
    if ((r[2] & (1 << 23 | 1 << 27 | 1 << 28)) != (1 << 23 | 1 << 27 | 1 << 28))
        return 0;
    if ((_xgetbv(0) & 6) != 6) /* the OS saves the XMM and YMM registers */
        return 0;
    __cpuidex(r, 7, 0);
    return (r[1] & (1 << 5)) != 0; /* EBX: AVX2 */
}
#else
#define PCT_TARGET_AVX2 __attribute__((target("avx2,popcnt")))
static inline int pct_cpu_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
}
#endif
#endif

/* The AVX-512 kernel (F, BW, VL, VBMI, VBMI2 with AVX2, BMI2 and POPCNT): built by
 * GCC 8+ and clang, whose target attribute confines it to its own
 * functions; left out of MSVC builds. Usable where CPUID reports every one
 * of those and XGETBV shows that the OS saves the opmask and ZMM state. */
#if defined(PCT_X86_64) && !defined(PCT_MSVC) && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8))
#define PCT_AVX512 1
#define PCT_TARGET_AVX512 \
    __attribute__((target("avx2,popcnt,bmi2,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")))
#include <cpuid.h>
static inline int pct_cpu_avx512(void)
{
    unsigned a, b, c, d, xcr0, xcr0_high;
    if (!pct_cpu_avx2() || !__get_cpuid(1, &a, &b, &c, &d) || !(c & 1u << 27)) /* OSXSAVE */
        return 0;
    __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_high) : "c"(0));
    (void)xcr0_high;
    /* XMM, YMM (bits 1-2), opmask, upper ZMM halves, ZMM16-31 (bits 5-7) */
    if ((xcr0 & 0xE6u) != 0xE6u || !__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    const unsigned ebx = 1u << 8 | 1u << 16 | 1u << 30 | 1u << 31; /* BMI2, AVX512F, BW, VL */
    const unsigned ecx = 1u << 1 | 1u << 6;              /* AVX512VBMI, VBMI2 */
    return (b & ebx) == ebx && (c & ecx) == ecx;
}
#endif

/* A body that its callers specialize (a constant argument) is inlined into
 * each of them, even where it is large. */
#if defined(PCT_MSVC)
#define PCT_ALWAYS_INLINE __forceinline
#elif defined(__GNUC__)
#define PCT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define PCT_ALWAYS_INLINE inline
#endif

/* A pointer written once by one thread and read by others: release store,
 * acquire load. */
#if defined(PCT_MSVC)
#define pct_atomic_store_ptr(p, v) ((void)_InterlockedExchangePointer((void *volatile *)(p), (void *)(v)))
#define pct_atomic_load_ptr(p) _InterlockedCompareExchangePointer((void *volatile *)(p), NULL, NULL)
#elif defined(__GNUC__)
#define pct_atomic_store_ptr(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define pct_atomic_load_ptr(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#else
#define pct_atomic_store_ptr(p, v) ((void)(*(p) = (v)))
#define pct_atomic_load_ptr(p) (*(p))
#endif

#endif /* PCT_PORTABLE_H */
