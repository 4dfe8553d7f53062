/// A pointer handed to row bands that write disjoint rows.
struct SendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}

/// A read-only pointer handed to worker threads (each reads; none writes).
struct SendableConstPointer<T>: @unchecked Sendable {
    let pointer: UnsafePointer<T>
    init(_ pointer: UnsafePointer<T>) { self.pointer = pointer }
}
