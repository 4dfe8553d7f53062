import Foundation

/// An HTTP/1.1 request as the preview server reads it: the head parsed, the body read whole (within
/// ``HTTPLimits/bodyBytes``).
struct HTTPRequest: Sendable {
    /// `GET`, `POST`, … as sent (methods are case-sensitive).
    var method: String
    /// The path, percent-decoded, without the query: `/render.png`.
    var path: String
    /// The query's names and values, percent-decoded (`+` is a space); each name once (HTTPHead
    /// refuses a repeated one).
    var query: [String: String]
    /// `HTTP/1.1` or `HTTP/1.0`.
    var version: String
    /// Header fields by lower-case name; a repeated field's values are joined with ", " (RFC 9110 §5.3).
    var headers: [String: String]
    var body: [UInt8] = []

    /// Whether the connection stays open after the response (HTTP/1.1 unless `Connection: close`; HTTP/1.0 only
    /// with `Connection: keep-alive`).
    var keepsAlive: Bool {
        let tokens = (headers["connection"] ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return version == "HTTP/1.1" ? !tokens.contains("close") : tokens.contains("keep-alive")
    }
}

/// A response: status, header fields, body. `Content-Length`, `Connection` and the security headers are added
/// when it is written (``HTTPConnectionHandler``).
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    init(status: Int = 200, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    /// `{"error": "…"}` with `status`: every refusal the server makes, from a bad header to a render over its time.
    static func error(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "application/json",
            body: Array("{\"error\":\(JSONText.string(message))}".utf8), headers: headers)
    }

    /// The reason phrase of every status the server sends.
    static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }
}

/// A request the server refuses while reading it: the status and the one-line reason it answers with, after which
/// it closes the connection (what follows on it cannot be framed).
struct HTTPRefusal: Error, Sendable {
    let status: Int
    let message: String
    /// Header fields the answer carries (`Retry-After`).
    var headers: [(name: String, value: String)] = []
    init(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.message = message
        self.headers = headers
    }
}

/// JSON string literals without Foundation's serializer: the error bodies are one string each.
enum JSONText {
    /// `text` as a JSON string, quotes included; control characters escaped as `\u00XX`.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
