import CVectorKernels

/// Whether the renderer's hottest loops run as their C twins in the CPU's own vector instructions
/// (`backdrop_vector_kernels.h`): on x86-64 CPUs with AVX2 and FMA, unless BACKDROP_VECTOR_KERNELS=off. Either way
/// the output is the same, bit for bit; only the time differs.
public enum VectorKernels {
    /// True where the kernels run (checked once, at first use).
    public static let available = bd_vector_kernels_available() != 0

    /// "x86-64-v3" where the kernels run, "portable" elsewhere: for reports and benchmarks.
    public static var name: String { available ? "x86-64-v3" : "portable" }
}
