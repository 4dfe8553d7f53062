import CHEIF
import Testing

/// The HEIF boundary (Sources/CHEIF) loads libheif on first use: the messages a HEIF input gets when the library
/// cannot be loaded or lacks a function the boundary calls, and the installed library has every one.
@Suite("HEIF library loading")
struct HEIFLibraryLoadingTests {
    /// bd_heif_library_check's status and message.
    static func check(_ soname: String) -> (status: Int32, message: String) {
        var message = [CChar](repeating: 0, count: 512)
        let status = bd_heif_library_check(soname, &message, message.count)
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return (status, String(decoding: bytes, as: UTF8.self))
    }

    @Test func theInstalledLibraryHasEveryFunction() {
        let (status, message) = Self.check(BD_HEIF_LIBRARY)
        #expect(BD_HEIF_LIBRARY == "libheif.so.1")
        #expect(status == 0, "\(message)")
    }

    /// dlopen's reason, the library and the Debian package, on one line.
    @Test func aMissingLibraryIsNamedWithItsPackage() {
        let (status, message) = Self.check("libheif-missing.so.1")
        #expect(status == -1)
        #expect(
            message.hasPrefix(
                "HEIF decoding needs libheif, which could not be loaded (libheif-missing.so.1: cannot open shared object"
            ), "\(message)")
        #expect(message.hasSuffix("install Debian's libheif1 (scripts/install-deps)"), "\(message)")
        #expect(!message.contains("\n"))
    }

    /// A library that loads but is not libheif (libc) lacks the first function.
    @Test func aLibraryWithoutAFunctionIsNamedWithTheFunction() {
        let (status, message) = Self.check("libc.so.6")
        #expect(status == -1)
        #expect(
            message
                == "HEIF decoding needs a newer libheif: libc.so.6 has no heif_context_alloc; install Debian's libheif1 (scripts/install-deps)",
            "\(message)")
    }
}
