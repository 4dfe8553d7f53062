import Foundation
import NIOHTTP1

/// A request's head as NIO's HTTP/1.1 parser (llhttp) gives it, checked where the preview is stricter: the version
/// (HTTP/1.1 or 1.0; 505 for another), the target (a path starting with '/', percent-decoded, UTF-8), at most
/// ``HTTPLimits/headerFields`` fields (431), a `Host` on HTTP/1.1, no `Transfer-Encoding` (the server reads only
/// `Content-Length` bodies: 501) and no control character in a value. The parser refuses the rest of what is
/// smuggling-shaped (white space before a colon, two different `Content-Length`s); the head's byte limits are
/// ``HTTPHeadLimiter``'s.
///
/// Contract: the answer is the request without its body, or an ``HTTPRefusal`` naming the problem.
extension HTTPRequest {
    init(_ head: HTTPRequestHead, limits: HTTPLimits) throws(HTTPRefusal) {
        let version = "HTTP/\(head.version.major).\(head.version.minor)"
        guard head.version.major > 0 else {  // `GET /` alone: HTTP/0.9 to the parser
            throw HTTPRefusal(400, "the request line is not 'METHOD /path HTTP/1.1'")
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw HTTPRefusal(505, "the version '\(version)' is not HTTP/1.1 or 1.0")
        }
        guard head.headers.count <= limits.headerFields else {
            throw HTTPRefusal(431, "more than \(limits.headerFields) header fields")
        }
        self = try HTTPHead.parseTarget(method: head.method.rawValue, target: Array(head.uri.utf8), version: version)
        for (field, value) in head.headers {
            guard value.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 || $0 >= 0x80 }) else {
                throw HTTPRefusal(400, "a header value has a control character")
            }
            let name = field.lowercased()
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        if headers["transfer-encoding"] != nil {
            throw HTTPRefusal(501, "Transfer-Encoding is not accepted; send the body with a Content-Length")
        }
        if version == "HTTP/1.1" && headers["host"] == nil {
            throw HTTPRefusal(400, "an HTTP/1.1 request needs a Host header")
        }
    }

    /// The answer to a request NIO's parser cannot read: 505 for a version it does not know, 400 otherwise.
    static func refusal(_ error: HTTPParserError) -> HTTPRefusal {
        switch error {
        case .invalidVersion: HTTPRefusal(505, "the version is not HTTP/1.1 or 1.0")
        case .invalidHeaderToken: HTTPRefusal(400, "a header line is not 'Name: value'")
        case .invalidContentLength, .unexpectedContentLength:
            HTTPRefusal(400, "Content-Length is not one whole number")
        case .invalidURL: HTTPRefusal(400, "the target is not a path starting with '/'")
        default: HTTPRefusal(400, "the request is not HTTP/1.1 (\(error))")
        }
    }
}

/// The parts of a request the server reads itself: the target and the body's length.
enum HTTPHead {
    /// `/path?query` as sent; the path and the query's names and values percent-decoded. A name given twice is a 400.
    static func parseTarget(method: String, target: [UInt8], version: String) throws(HTTPRefusal) -> HTTPRequest {
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPRefusal(400, "the target is not a path starting with '/'")
        }
        let target = target[...]
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let path = try percentDecoded(target[..<(question ?? target.endIndex)], plusIsSpace: false)
        var query: [String: String] = [:]
        if let question {
            for pair in target[(question + 1)...].split(separator: UInt8(ascii: "&")) {
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                let name = try percentDecoded(pair[..<equals], plusIsSpace: true)
                let value = equals == pair.endIndex ? "" : try percentDecoded(pair[(equals + 1)...], plusIsSpace: true)
                // Which of two values was meant is not ours to guess (`kind=actual&kind=expected`).
                guard query.updateValue(value, forKey: name) == nil else {
                    throw HTTPRefusal(400, "the query gives '\(printable(name))' more than once")
                }
            }
        }
        return HTTPRequest(method: method, path: path, query: query, version: version, headers: [:])
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
