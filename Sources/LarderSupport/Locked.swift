import Foundation

/// A value behind a lock.
///
/// `@unchecked Sendable` is sound here: the only stored state is `value`, every read and write of it happens inside
/// `withLock` while `lock` is held, and `Value` is itself `Sendable`, so a value taken out of the lock (or put in)
/// may cross threads. (Without that constraint a non-Sendable reference could escape the lock and be shared.)
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
