/// A pointer handed to row bands that write disjoint rows.
package struct SendablePointer<T>: @unchecked Sendable {
    package let pointer: UnsafeMutablePointer<T>
    package init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}

/// A read-only pointer handed to worker threads (each reads; none writes).
package struct SendableConstPointer<T>: @unchecked Sendable {
    package let pointer: UnsafePointer<T>
    package init(_ pointer: UnsafePointer<T>) { self.pointer = pointer }
}
