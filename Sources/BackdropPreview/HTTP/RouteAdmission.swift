import Foundation

extension RequestOrigin {
    /// The first check of every request, from its head alone and before its body is read, for a server answering
    /// `routes` (each path and the methods it takes): a foreign `Host` (``checkHost(_:)``), a path not in the table
    /// (404), a method the path does not take (405, naming those it takes), a state change from another origin
    /// without the token (``checkStateChange(_:)``), a body on a request that is not a POST (400). Each server adds
    /// its own limits on bodies after it.
    func admit(_ head: HTTPRequest, bodyLength: Int, routes: [String: Set<String>]) throws(HTTPRefusal) {
        try checkHost(head)
        guard let methods = routes[head.path] else {
            throw HTTPRefusal(404, "no such path: '\(HTTPHead.printable(head.path))'")
        }
        guard methods.contains(head.method) else {
            throw HTTPRefusal(
                405,
                "\(HTTPHead.printable(head.method)) is not allowed on \(head.path); it takes "
                    + methods.sorted().joined(separator: ", "))
        }
        try checkStateChange(head)
        if bodyLength > 0 && head.method != "POST" { throw HTTPRefusal(400, "\(head.method) takes no body") }
    }
}
