import BackdropTestSupport
import Foundation
import Testing

/// Issue 48: `scripts/install` makes programs that run without the toolchain they were built with. The real
/// install runs, linking the build under test again (`--skip-build`: `swift test` holds the build folder), then
/// `ldd` must show no library from the toolchain's folder and none missing, and `readelf` the packed relative
/// relocations `scripts/build-portable` links in.
@Suite("A portable install")
struct PortableInstallTests {
    /// The toolchain's folder: the one above the `bin` that holds the `swift` on the PATH, links resolved (there
    /// `swift` may be a link to `swift-driver`).
    func toolchainFolder() throws -> String {
        let which = try runProcess("/usr/bin/env", ["sh", "-c", "dirname \"$(readlink -f \"$(command -v swift)\")\""])
        let bin = which.output.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(which.status == 0 && bin.hasSuffix("/bin"), "no swift on the PATH: \(which.output)")
        return String(bin.dropLast("/bin".count))
    }

    @Test func theInstalledProgramsNeedNothingFromTheToolchain() throws {
        let toolchain = try toolchainFolder()
        let prefix = try Fixtures.temporaryDirectory().appendingPathComponent("prefix")
        let script = Fixtures.packageRoot.appendingPathComponent("scripts/install").path
        let install = try runProcess(script, ["--prefix", prefix.path, "--skip-build"])
        try #require(install.status == 0, "\(install.output)")
        for program in ["backdrop", "backdrop-preview"] {
            let path = prefix.appendingPathComponent("bin/\(program)").path
            let ldd = try runProcess("/usr/bin/ldd", [path])
            #expect(ldd.status == 0, "\(program): \(ldd.output)")
            #expect(!ldd.output.contains(toolchain), "\(program) links the toolchain's libraries:\n\(ldd.output)")
            #expect(!ldd.output.contains("libswiftCore"), "\(program) links the Swift runtime:\n\(ldd.output)")
            #expect(!ldd.output.contains("not found"), "\(program):\n\(ldd.output)")
            // scripts/build-portable packs the relative relocations (a table of 15 KB, not 1.9 MB, to read at start).
            let dynamic = try runProcess("/usr/bin/readelf", ["--dynamic", path])
            #expect(dynamic.status == 0 && dynamic.output.contains("(RELR)"), "\(program):\n\(dynamic.output)")
            // Installed stripped: no debug information, no symbol table (issue 68 item 8: 84 and 101 MB before).
            let sections = try runProcess("/usr/bin/readelf", ["--sections", "--wide", path])
            #expect(
                sections.status == 0 && !sections.output.contains(".debug_info"),
                "\(program) keeps its debug information")
            #expect(!sections.output.contains(".symtab"), "\(program) keeps its symbol table")
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            #expect(size < 70_000_000, "\(program) is \(size) bytes")
        }
        // And it runs with no library path pointing anywhere.
        let styles = try runProcess(
            "/usr/bin/env", ["-i", prefix.appendingPathComponent("bin/backdrop").path, "styles"])
        #expect(styles.status == 0 && styles.output.contains("extraLight"), "\(styles.output)")
    }
}
