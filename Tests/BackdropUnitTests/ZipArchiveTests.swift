import Backdrop
import Foundation
import Testing

/// ``ZipArchive``'s contract: stored and deflated members read, and each refusal one line naming the file.
@Suite("ZipArchive: the members of a .sketch file")
struct ZipArchiveTests {
    /// A ZIP archive of one member `name` holding `data` as it is (method 0 unless `method` says otherwise).
    func archive(
        _ name: String, _ data: [UInt8], method: Int = 0, flags: Int = 0, size: Int? = nil, count: Int = 1
    ) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let common =
            u16(20) + u16(flags) + u16(method) + u16(0) + u16(0) + u32(0) + u32(data.count) + u32(size ?? data.count)
        let local = u32(0x0403_4B50) + common + u16(name.utf8.count) + u16(0) + Array(name.utf8) + data
        let directory =
            u32(0x0201_4B50) + u16(20) + common + u16(name.utf8.count) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0)
            + u32(0) + Array(name.utf8)
        return local + directory + u32(0x0605_4B50) + u16(0) + u16(0) + u16(count) + u16(count)
            + u32(directory.count) + u32(local.count) + u16(0)
    }

    func refusal(_ bytes: [UInt8], limit: Int = 1000) -> String {
        do {
            _ = try ZipArchive(bytes, source: "f.sketch").read("a", limit: limit)
            return "no error"
        } catch {
            #expect(error.kind == .badInput)
            return error.message
        }
    }

    @Test func storedAndDeflatedMembersAreRead() throws {
        let text = Array(String(repeating: "sketch ", count: 40).utf8)
        let stored = try ZipArchive(archive("a", text), source: "f.sketch")
        #expect(stored.names == ["a"])
        #expect(try stored.read("a", limit: 1000) == text)
        #expect(try stored.read("b", limit: 1000) == nil)
        // "sketch " × 40 as raw DEFLATE (Python's zlib.compressobj(9, DEFLATED, -15)).
        let deflated: [UInt8] = [0x2B, 0xCE, 0x4E, 0x2D, 0x49, 0xCE, 0x50, 0x28, 0x1E, 0xA5, 0x50, 0x29, 0x00]
        let inflated = try ZipArchive(archive("a", deflated, method: 8, size: text.count), source: "f.sketch")
        #expect(try inflated.read("a", limit: 1000) == text)
    }

    @Test func eachRefusalIsOneLine() {
        let data = Array("abc".utf8)
        #expect(refusal(Array("PK\u{3}\u{4}".utf8)) == "f.sketch: not a zip archive (no end of central directory)")
        #expect(refusal(archive("a", data, count: 0xFFFF)) == "f.sketch: a ZIP64 archive is not read")
        #expect(refusal(archive("a", data, flags: 1)) == "f.sketch: a: an encrypted member is not read")
        #expect(
            refusal(archive("a", data, method: 12))
                == "f.sketch: a: compression method 12 is not read (only stored and deflate)")
        #expect(refusal(archive("a", data), limit: 2) == "f.sketch: a: larger than 2 bytes")
        #expect(
            refusal(archive("a", data, method: 8, size: 3)) == "f.sketch: a: does not inflate to its stated 3 bytes")
        #expect(refusal(Array(archive("a", data).dropFirst(4))).hasPrefix("f.sketch: "))
    }
}
