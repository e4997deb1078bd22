/// A bounded FIFO of bytes for one consumer: whole messages go in or are refused (and counted), the
/// front goes out as the socket takes it. Its memory never exceeds `limit` plus one compaction.
///
/// ```swift
/// var q = ByteQueue(limit: 65_536)
/// if !q.push(Array(line.utf8)) { dropped += 1 }
/// q.consume(sent)
/// ```
public struct ByteQueue: Sendable {
    public let limit: Int
    private var storage: [UInt8] = []
    private var head = 0

    public init(limit: Int) { self.limit = limit }

    /// Bytes waiting.
    public var count: Int { storage.count - head }
    public var isEmpty: Bool { count == 0 }

    /// Appends the whole message, or nothing (false) when it would not fit.
    public mutating func push(_ bytes: [UInt8]) -> Bool { push(bytes[...]) }

    /// Appends the whole message, or nothing (false) when it would not fit.
    public mutating func push(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard count + bytes.count <= limit else { return false }
        if head > 0 && head >= storage.count / 2 {
            storage.removeSubrange(0..<head)
            head = 0
        }
        storage.append(contentsOf: bytes)
        return true
    }

    /// The bytes waiting, front first.
    public var front: ArraySlice<UInt8> { storage[head...] }

    /// Forgets the first `n` bytes (they were sent).
    public mutating func consume(_ n: Int) {
        head += min(n, count)
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
    }
}
