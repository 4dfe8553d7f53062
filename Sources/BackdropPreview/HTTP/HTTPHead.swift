import Foundation

/// Parses a request's head: the request line and the header fields, up to and without the blank line that ends
/// them (RFC 9112 §2–5). Strict where leniency is how requests are smuggled: a field name with white space before
/// its colon, an obsolete folded line, a `Transfer-Encoding` (the server reads only `Content-Length` bodies) and
/// two different `Content-Length`s are refused. Lines may end in CRLF or a bare LF (§2.2).
///
/// Contract: `head` is at most ``HTTPLimits/headBytes`` long (the connection stops reading there); the answer is
/// the request without its body, or an ``HTTPRefusal`` naming the problem.
enum HTTPHead {
    static func parse(_ head: ArraySlice<UInt8>, limits: HTTPLimits) throws(HTTPRefusal) -> HTTPRequest {
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first, !requestLine.isEmpty else {
            throw HTTPRefusal(400, "the request has no request line")
        }
        guard lines.count - 1 <= limits.headerFields else {
            throw HTTPRefusal(431, "more than \(limits.headerFields) header fields")
        }
        var request = try parseRequestLine(requestLine)
        for line in lines.dropFirst() {
            let (name, value) = try parseField(line)
            if let earlier = request.headers[name] {
                request.headers[name] = earlier + ", " + value
            } else {
                request.headers[name] = value
            }
        }
        if request.headers["transfer-encoding"] != nil {
            throw HTTPRefusal(501, "Transfer-Encoding is not accepted; send the body with a Content-Length")
        }
        if request.version == "HTTP/1.1" && request.headers["host"] == nil {
            throw HTTPRefusal(400, "an HTTP/1.1 request needs a Host header")
        }
        return request
    }

    /// `METHOD SP /path?query SP HTTP/1.x`.
    static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPRefusal) -> HTTPRequest {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw HTTPRefusal(400, "the request line is not 'METHOD /path HTTP/1.1'") }
        let method = String(decoding: parts[0], as: UTF8.self)
        guard !method.isEmpty, parts[0].allSatisfy(isTokenByte) else {
            throw HTTPRefusal(400, "the method is not a token")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw HTTPRefusal(
                version.hasPrefix("HTTP/") ? 505 : 400, "the version '\(printable(version))' is not HTTP/1.1 or 1.0")
        }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPRefusal(400, "the target is not a path starting with '/'")
        }
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let path = try percentDecoded(target[..<(question ?? target.endIndex)], plusIsSpace: false)
        var query: [String: String] = [:]
        if let question {
            for pair in target[(question + 1)...].split(separator: UInt8(ascii: "&")) {
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                let name = try percentDecoded(pair[..<equals], plusIsSpace: true)
                let value = equals == pair.endIndex ? "" : try percentDecoded(pair[(equals + 1)...], plusIsSpace: true)
                query[name] = value
            }
        }
        return HTTPRequest(method: method, path: path, query: query, version: version, headers: [:])
    }

    /// `name: value`, the name lower-cased, the value without the white space around it.
    static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPRefusal) -> (String, String) {
        if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") {
            throw HTTPRefusal(400, "a folded header line (obsolete line folding is not accepted)")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
            line[..<colon].allSatisfy(isTokenByte)
        else {
            throw HTTPRefusal(400, "a header line is not 'Name: value'")
        }
        let isWhite = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var value = line[(colon + 1)...]
        while let first = value.first, isWhite(first) { value = value.dropFirst() }
        while let last = value.last, isWhite(last) { value = value.dropLast() }
        guard value.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 || $0 >= 0x80 }) else {
            throw HTTPRefusal(400, "a header value has a control character")
        }
        return (String(decoding: line[..<colon], as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self))
    }

    /// The body's length from `Content-Length` (0 without one): digits only, the same value when repeated.
    static func contentLength(_ request: HTTPRequest) throws(HTTPRefusal) -> Int {
        guard let field = request.headers["content-length"] else { return 0 }
        let values = Set(field.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard values.count == 1, let text = values.first, !text.isEmpty, text.count <= 18,
            text.allSatisfy({ ("0"..."9").contains($0) }), let length = Int(text)
        else {
            throw HTTPRefusal(400, "Content-Length '\(printable(field))' is not one whole number")
        }
        return length
    }

    /// RFC 9110 §5.6.2's token characters.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// `%XX` decoded (and `+` as a space in a query); a `%` without two hex digits, or bytes that are not UTF-8,
    /// are a 400.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) throws(HTTPRefusal) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                    let high = bytes[index + 1].hexadecimalDigitValue, let low = bytes[index + 2].hexadecimalDigitValue
                else { throw HTTPRefusal(400, "a '%' in the target is not followed by two hex digits") }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw HTTPRefusal(400, "the target is not UTF-8 once decoded")
        }
        return text
    }

    /// `text` cut to 60 characters with control characters replaced, to quote inside an error.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.prefix(60).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}
