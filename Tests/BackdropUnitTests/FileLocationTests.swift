import BackdropImageIO
import BackdropTestSupport
import Foundation
import Testing

/// `FileLocation` works on strings and system calls alone; these hold its path arithmetic to what Foundation's URL and
/// NSString answered before, and its answers through links to `realpath`.
@Suite("File locations")
struct FileLocationTests {
    static let paths = [
        "/", "/a", "/a/", "/a/b", "/a/b/", "//a//b//", "/./a/./b/.", "/a/../b", "/../a", "/a/b/../../..", "/a/..",
        "/a/b/c/../../d", "/.hidden/x.png", "/a/.../b", "/a/..b/c", "/a b/ç/x.png",
    ]

    @Test("standardized paths are what URL.standardizedFileURL makes of them, less empty components")
    func standardizedIsURLs() {
        for path in Self.paths {
            let foundation = URL(fileURLWithPath: path).standardizedFileURL.path
                .split(separator: "/").map(String.init).joined(separator: "/")
            #expect(FileLocation.standardized(path) == "/" + foundation, "\(path)")
        }
    }

    @Test("a folder and a name are what NSString splits a standardized path into")
    func splitIsNSStrings() {
        for path in Self.paths.map(FileLocation.standardized) where path != "/" {
            let (folder, name) = FileLocation.split(path)
            #expect(folder == (path as NSString).deletingLastPathComponent, "\(path)")
            #expect(name == (path as NSString).lastPathComponent, "\(path)")
        }
    }

    @Test("a path through a link resolves to where the link leads, a missing tail appended")
    func resolvedFollowsLinks() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("file-location-\(getpid())").path
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root + "/real/inner", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/real")
        let real = try #require(realpath(root + "/real", nil))
        defer { free(real) }
        let target = String(cString: real)
        #expect(FileLocation.resolved(root + "/link/inner") == target + "/inner")
        #expect(FileLocation.resolved(root + "/link/inner/../missing/x.png") == target + "/missing/x.png")
        #expect(FileLocation.resolved(root + "/link/./new.png") == target + "/new.png")
        #expect(FileLocation.lies(root + "/link/inner/x.png", inside: root + "/real"))
        #expect(!FileLocation.lies(root + "/link/../outside.png", inside: root + "/real"))
        let cwd = FileManager.default.currentDirectoryPath
        #expect(FileLocation.resolved("relative-missing.png") == FileLocation.resolved(cwd + "/relative-missing.png"))
    }
}
