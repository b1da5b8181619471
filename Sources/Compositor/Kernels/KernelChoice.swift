import CKernels

/// A set of kernels a process can run, by the name `BLURTOOL_KERNELS` gives it. By default the process runs the
/// best C level the CPU has (`best`); the variable forces one set, to check a result against the scalar twins or
/// compare speeds.
@_spi(Benchmarks) public enum KernelChoice: String, CaseIterable, Sendable {
    /// The scalar reference twins.
    case reference
    /// The Swift SIMD kernels as this build compiled them (SSE2 on x86-64 without `-target-cpu`).
    case swift
    /// The C kernels at the architecture's baseline (SSE2 on x86-64, NEON on arm64).
    case baseline
    /// The C kernels for x86-64-v3 (AVX2 and FMA).
    case avx2
    /// The C kernels for x86-64-v4 (AVX-512).
    case avx512

    /// How `--verbose` and blurbench name the set.
    public var name: String {
        switch self {
        case .reference: return "scalar reference"
        case .swift: return "Swift SIMD"
        case .baseline:
            // A build for one CPU (`make release`) compiles every C file for it: its "baseline" is that CPU's code.
            #if BLURTOOL_TARGET_CPU
                return "baseline, C compiled for the building CPU"
            #elseif arch(x86_64)
                return "x86-64 baseline (SSE2), C"
            #else
                return "architecture baseline, C"
            #endif
        case .avx2: return "x86-64-v3 (AVX2+FMA), C"
        case .avx512: return "x86-64-v4 (AVX-512), C"
        }
    }

    /// The C target's level, for the C kernel sets.
    private var level: Int32? {
        switch self {
        case .reference, .swift: return nil
        case .baseline: return BT_LEVEL_BASELINE
        case .avx2: return BT_LEVEL_X86_64_V3
        case .avx512: return BT_LEVEL_X86_64_V4
        }
    }

    /// Whether this build has the set's code and this CPU runs it.
    public var isAvailable: Bool {
        guard let level else { return true }
        return bt_kernels(level) != nil && bt_cpu_has_level(level) != 0
    }

    /// The sets this process can run, `reference` first and the best C level last.
    public static var available: [KernelChoice] { allCases.filter(\.isAvailable) }

    /// The C sets this process can run, the baseline first.
    static var availableC: [KernelChoice] { available.filter { $0.level != nil } }

    /// The default: the best C level the CPU has.
    public static var best: KernelChoice { availableC.last ?? .swift }

    /// The kernels themselves. Only for an available set (`isAvailable`): a level's code can use instructions an
    /// older CPU lacks.
    var kernels: any ConvolutionKernelSet.Type {
        precondition(isAvailable, "\(rawValue) kernels asked for on a CPU or build without them")
        switch self {
        case .reference: return ScalarKernels.self
        case .swift: return SIMDKernels.self
        case .baseline: return CKernels<BaselineLevel>.self
        case .avx2, .avx512:
            #if arch(x86_64)
                return self == .avx2 ? CKernels<X86_64_V3Level>.self : CKernels<X86_64_V4Level>.self
            #else
                preconditionFailure("unreachable: no x86-64 level is available elsewhere")
            #endif
        }
    }

    /// The C set's table of kernels (nil for `reference` and `swift`), for the loops outside the kernel-set
    /// protocols (the quantiser's). Only for an available set, as `kernels`.
    var table: bt_kernel_table? {
        guard let level else { return nil }
        precondition(isAvailable, "\(rawValue) kernels asked for on a CPU or build without them")
        return bt_kernels(level)!.pointee
    }

    /// The set `BLURTOOL_KERNELS` asks for: `best` when it is unset or empty, else the set it names, or why it
    /// cannot be had (one line, for the tools to print before they exit).
    public static func parse(environmentValue value: String?) -> Result<KernelChoice, KernelChoiceError> {
        guard let value, !value.isEmpty else { return .success(best) }
        guard let choice = KernelChoice(rawValue: value) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(KernelChoiceError(message: "BLURTOOL_KERNELS=\(value) names no kernel set (\(names))"))
        }
        guard choice.isAvailable else {
            let names = available.map(\.rawValue).joined(separator: ", ")
            return .failure(
                KernelChoiceError(message: "BLURTOOL_KERNELS=\(value): this CPU or build lacks them (it has \(names))"))
        }
        return .success(choice)
    }
}

/// Why `BLURTOOL_KERNELS` could not be honoured.
@_spi(Benchmarks) public struct KernelChoiceError: Error, Equatable, Sendable {
    /// One line, without the program's name.
    public let message: String
}
