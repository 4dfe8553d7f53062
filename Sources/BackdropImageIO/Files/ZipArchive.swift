import CLibPNG

/// The members of a ZIP archive held in memory (a `.sketch` file): its central directory read, a member's bytes
/// stored or inflated (method 0 or 8). Refused with a one-line `.badInput` error naming `source`: bytes that are not
/// a ZIP archive, ZIP64, an encrypted member, another method, a member over `limit` bytes, offsets outside the
/// bytes, and a stream that does not inflate to its stated size. The CRC-32 is not checked.
package struct ZipArchive {
    /// One member of the central directory.
    struct Member {
        var method: Int
        var flags: Int
        var compressedSize: Int
        var size: Int
        var localHeader: Int
    }

    let bytes: [UInt8]
    let source: String
    let members: [String: Member]
    /// The members' names, in the central directory's order.
    package let names: [String]

    /// Whether `bytes` start as a ZIP archive does (a local file header).
    package static func looksLikeZip(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0x50, 0x4B, 0x03, 0x04])
    }

    package init(_ bytes: [UInt8], source: String) throws(BackdropError) {
        self.bytes = bytes
        self.source = source
        func fail(_ problem: String) -> BackdropError { BackdropError(.badInput, "\(source): \(problem)") }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The end of central directory record: 22 bytes and a comment of at most 65 535, at the end.
        var end: Int?
        var at = bytes.count - 22
        while at >= 0, at >= bytes.count - 22 - 65_535 {
            if u32(at) == 0x0605_4B50 {
                end = at
                break
            }
            at -= 1
        }
        guard let end else { throw fail("not a zip archive (no end of central directory)") }
        let count = u16(end + 10), directorySize = u32(end + 12), directory = u32(end + 16)
        guard count != 0xFFFF, directory != 0xFFFF_FFFF else { throw fail("a ZIP64 archive is not read") }
        guard directory + directorySize <= end else { throw fail("corrupt zip archive (central directory)") }
        var members: [String: Member] = [:]
        var names: [String] = []
        var entry = directory
        for _ in 0..<count {
            guard entry + 46 <= end, u32(entry) == 0x0201_4B50 else {
                throw fail("corrupt zip archive (central directory entry)")
            }
            let nameLength = u16(entry + 28), extra = u16(entry + 30), comment = u16(entry + 32)
            guard entry + 46 + nameLength <= end else { throw fail("corrupt zip archive (member name)") }
            let name = String(decoding: bytes[(entry + 46)..<(entry + 46 + nameLength)], as: UTF8.self)
            members[name] = Member(
                method: u16(entry + 10), flags: u16(entry + 8), compressedSize: u32(entry + 20),
                size: u32(entry + 24), localHeader: u32(entry + 42))
            names.append(name)
            entry += 46 + nameLength + extra + comment
        }
        self.members = members
        self.names = names
    }

    /// The bytes of member `name`, nil when the archive has none of that name.
    package func read(_ name: String, limit: Int) throws(BackdropError) -> [UInt8]? {
        guard let member = members[name] else { return nil }
        func fail(_ problem: String) -> BackdropError { BackdropError(.badInput, "\(source): \(name): \(problem)") }
        guard member.flags & 1 == 0 else { throw fail("an encrypted member is not read") }
        guard member.size <= limit else { throw fail("larger than \(limit) bytes") }
        let header = member.localHeader
        guard header + 30 <= bytes.count, bytes[header..<(header + 4)].elementsEqual([0x50, 0x4B, 0x03, 0x04])
        else { throw fail("corrupt zip archive (local header)") }
        let start =
            header + 30 + (Int(bytes[header + 26]) | Int(bytes[header + 27]) << 8)
            + (Int(bytes[header + 28]) | Int(bytes[header + 29]) << 8)
        guard start + member.compressedSize <= bytes.count else { throw fail("corrupt zip archive (member data)") }
        let data = bytes[start..<(start + member.compressedSize)]
        switch member.method {
        case 0:
            guard member.compressedSize == member.size else { throw fail("corrupt zip archive (stored size)") }
            return Array(data)
        case 8:
            var out = [UInt8](repeating: 0, count: member.size)
            let ok = data.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { output in
                    bd_inflate_raw(input.baseAddress, input.count, output.baseAddress, output.count)
                }
            }
            guard ok == 1 else { throw fail("does not inflate to its stated \(member.size) bytes") }
            return out
        default:
            throw fail("compression method \(member.method) is not read (only stored and deflate)")
        }
    }
}
