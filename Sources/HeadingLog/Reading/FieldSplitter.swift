/// Finds the fields of one CSV line (Lodestone logs never quote), remembering where each ends.
///
/// ```swift
/// let fields = FieldSplitter()
/// let count = fields.split(line)
/// let time = fields[0, in: line]
/// ```
public final class FieldSplitter {
    /// The most fields remembered; a line may have more, which are only counted.
    public let capacity: Int
    private let ends: UnsafeMutablePointer<Int>

    public init(capacity: Int = 128) {
        self.capacity = max(1, capacity)
        ends = .allocate(capacity: self.capacity + 1)
        ends[0] = -1
    }

    deinit { ends.deallocate() }

    /// Splits the line and returns its number of fields.
    @inline(__always)
    public func split(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        let n = line.count
        guard let base = line.baseAddress else {
            ends[1] = 0
            return 1
        }
        var i = 0
        while i < n {
            if base[i] == 44 {
                if count < capacity { ends[count + 1] = i }
                count += 1
            }
            i += 1
        }
        if count < capacity { ends[count + 1] = n }
        return count + 1
    }

    /// The bytes of field `index` (0-based) of the line last split; `index` must be below both the
    /// count `split` returned and `capacity`.
    @inline(__always)
    public subscript(index: Int, in line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let start = ends[index] + 1
        let end = ends[index + 1]
        return UnsafeBufferPointer(rebasing: line[start..<end])
    }
}
