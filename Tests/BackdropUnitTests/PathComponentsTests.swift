import Backdrop
import Foundation
import Testing

/// ``PathComponents`` answers as `NSString` does, without its trap on one-character names (issue 70, item 1).
@Suite("Path components")
struct PathComponentsTests {
    /// Paths Foundation handles without tidying them, each compared with `NSString`'s four answers.
    static let foundationPaths = [
        "", "/", "ab", "/ab", "a/b", "/a/b", "dir/file.png", "file.tar.gz", ".hidden", "dir/.hidden", "dir.d/name",
        "/x/y.z/", "é/ü.webp", "a/b/c/d.JSON", "..", "../up.png", "./here.json", "no extension/x",
    ]

    @Test(arguments: foundationPaths)
    func answersAsNSStringDoes(path: String) {
        let ns = path as NSString
        #expect(PathComponents.folder(of: path) == ns.deletingLastPathComponent)
        #expect(PathComponents.lastComponent(of: path) == ns.lastPathComponent)
        #expect(PathComponents.pathExtension(of: path) == ns.pathExtension)
        #expect(PathComponents.removingExtension(path) == ns.deletingPathExtension)
    }

    /// The names on which Foundation's path code traps on Linux: a relative name of one character.
    @Test func oneCharacterNames() {
        for name in ["m", "s", "-", ".", "é"] {
            #expect(PathComponents.folder(of: name) == "")
            #expect(PathComponents.lastComponent(of: name) == name)
            #expect(PathComponents.pathExtension(of: name) == "")
            #expect(PathComponents.removingExtension(name) == name)
        }
        #expect(PathComponents.folder(of: "d/m") == "d")
        #expect(PathComponents.folder(of: "/m") == "/")
    }

    /// Where `NSString` tidies the text, the path is kept as given (and `//` is the root).
    @Test func pathsKeptAsGiven() {
        #expect(PathComponents.folder(of: "//") == "/")
        #expect(PathComponents.lastComponent(of: "//") == "/")
        #expect(PathComponents.folder(of: "a//b") == "a")
        #expect(PathComponents.folder(of: "a/b/") == "a")
        #expect(PathComponents.lastComponent(of: "a/b/") == "b")
        #expect(PathComponents.removingExtension("a//b.png") == "a//b")
        #expect(PathComponents.removingExtension("ab/") == "ab/")
        #expect(PathComponents.removingExtension("x.png/") == "x")
        #expect(PathComponents.pathExtension(of: "name.") == "")
        #expect(PathComponents.removingExtension("name.") == "name.")
    }
}
