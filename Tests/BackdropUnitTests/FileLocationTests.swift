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
        // A "/" followed by a combining mark is one Character of a Swift string, and still a separator.
        "/a/../\u{301}b", "/a/\u{301}b", "/a/\u{301}/../b", "/\u{301}x.png", "/a/.\u{301}/b",
    ]

    @Test("standardized paths are what URL.standardizedFileURL makes of them, less empty components")
    func standardizedIsURLs() {
        for path in Self.paths {
            // URL's answer with its empty components dropped, split at "/" bytes (not Characters).
            let foundation = Array(URL(fileURLWithPath: path).standardizedFileURL.path.utf8)
                .split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
            #expect(FileLocation.standardized(path) == "/" + foundation.joined(separator: "/"), "\(path)")
        }
    }

    @Test("a folder and a name are what NSString splits a standardized path into, at every slash byte")
    func splitIsNSStrings() {
        // NSString splits Characters, so it keeps "/" and a combining mark together: those paths have their answer
        // written out, the kernel's (a "/" byte is a separator wherever it stands).
        let combining: [String: (folder: String, name: String)] = [
            "/\u{301}b": ("/", "\u{301}b"), "/a/\u{301}b": ("/a", "\u{301}b"), "/\u{301}x.png": ("/", "\u{301}x.png"),
        ]
        for path in Self.paths.map(FileLocation.standardized) where path != "/" {
            let (folder, name) = FileLocation.split(path)
            if let expected = combining[path] {
                #expect(folder == expected.folder && name == expected.name, "\(path)")
            } else {
                #expect(folder == (path as NSString).deletingLastPathComponent, "\(path)")
                #expect(name == (path as NSString).lastPathComponent, "\(path)")
            }
        }
        #expect(combining.keys.allSatisfy { Self.paths.map(FileLocation.standardized).contains($0) })
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
        // A ".." before a component that starts with a combining mark still leaves the folder; a name that starts
        // with one stays inside it.
        #expect(!FileLocation.lies(root + "/real/../\u{301}x.png", inside: root + "/real"))
        #expect(FileLocation.lies(root + "/real/\u{301}x.png", inside: root + "/real"))
        #expect(FileLocation.resolved(root + "/real/\u{301}x.png") == target + "/\u{301}x.png")
        let cwd = FileManager.default.currentDirectoryPath
        #expect(FileLocation.resolved("relative-missing.png") == FileLocation.resolved(cwd + "/relative-missing.png"))
    }
}
