import CBlurToolAPI
import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Static C strings for the whole life of the process.
nonisolated(unsafe) private let version: UnsafeMutablePointer<CChar> = strdup(LibraryVersion.string)!
nonisolated(unsafe) private let kernels: UnsafeMutablePointer<CChar> = strdup(Kernels.name)!
nonisolated(unsafe) private let materials: UnsafeMutablePointer<CChar> =
    strdup(MaterialCatalog.knownNames.joined(separator: ","))!

@_cdecl("blurtool_abi_version")
public func blurtool_abi_version() -> Int32 { BLURTOOL_ABI_VERSION }

@_cdecl("blurtool_version")
public func blurtool_version() -> UnsafePointer<CChar> { UnsafePointer(version) }

@_cdecl("blurtool_kernels")
public func blurtool_kernels() -> UnsafePointer<CChar> { UnsafePointer(kernels) }

@_cdecl("blurtool_materials")
public func blurtool_materials() -> UnsafePointer<CChar> { UnsafePointer(materials) }

@_cdecl("blurtool_last_error")
public func blurtool_last_error() -> UnsafePointer<CChar> { LastError.current }

@_cdecl("blurtool_free")
public func blurtool_free(_ memory: UnsafeMutableRawPointer?) { free(memory) }
