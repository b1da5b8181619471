/// The grid rows that neighbouring bands of a pyramid blur both read, each made once by whichever band comes
/// to it first, while the bands run: no phase of its own before them.
///
/// Band b + 1 needs the rows it shares with band b as soon as it starts, band b only when it ends, so in a
/// parallel run band b + 1 makes them and band b finds them made. A band that finds a row being made by
/// another does not wait for it: it makes its own copy (a waiting band could deadlock where bands run one
/// after another, under a nested `concurrentPerform` say). Copies are identical, so results do not depend on
/// which band made a row.
///
/// (Made beforehand in a phase of its own, split across threads, these rows cost more: both threads then only
/// read memory, which a second core hardly speeds up, and the phase needs one more start and join of the
/// threads; at σ 100 on 12 MP a third of the image is read there.)
final class SharedCellRows: @unchecked Sendable {
    private enum State: UInt8 {
        case empty, making, made
    }

    /// For each grid row, its index among the shared rows, or −1.
    private let slots: UnsafeMutablePointer<Int>
    private let rows: UnsafeMutablePointer<Float>
    private let rowCount: Int
    private let states: UnsafeMutablePointer<State>
    private let lock = Locked(())

    /// Shares the grid rows `list` (`count` of them) of a grid `height` rows tall, each `rowCount` Floats.
    init(_ list: UnsafePointer<Int>, count: Int, height: Int, rowCount: Int, workspace: Workspace) {
        self.rowCount = rowCount
        slots = workspace.buffer(.sharedRowTable, count: height, of: Int.self)
        slots.initialize(repeating: -1, count: height)
        for i in 0..<count { slots[list[i]] = i }
        rows = workspace.buffer(.sharedRows, count: count * rowCount, of: Float.self)
        states = workspace.buffer(.sharedRowStates, count: count, of: State.self)
        states.initialize(repeating: .empty, count: count)
    }

    /// Grid row j: the shared copy, made now with `make` into the shared buffer if no band has begun it; nil if
    /// the row is not shared, or another band is making it (the caller then makes its own).
    func row(_ j: Int, make: (UnsafeMutablePointer<Float>) -> UnsafePointer<Float>) -> UnsafePointer<Float>? {
        let slot = slots[j]
        guard slot >= 0 else { return nil }
        let shared = rows + slot * rowCount
        let state = lock.withLock { _ in
            let state = states[slot]
            if state == .empty { states[slot] = .making }
            return state
        }
        switch state {
        case .made: return UnsafePointer(shared)
        case .making: return nil
        case .empty:
            let made = make(shared)
            if made != UnsafePointer(shared) { shared.update(from: made, count: rowCount) }
            lock.withLock { _ in states[slot] = .made }
            return UnsafePointer(shared)
        }
    }
}
