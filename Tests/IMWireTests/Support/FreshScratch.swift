import IMWire

/// The capacities of the thread's scratch buffers after a ``withFreshScratch(_:)`` body: those of
/// the buffers its last encode or view gave back (the initial capacities again when that buffer had
/// grown past what a thread keeps, and was freed).
struct ScratchCapacities: Equatable {
    /// `Scratch.bytes`, in bytes: the binary writer's buffer, a JSON view's copy.
    var bytes: Int
    /// `Scratch.words`, in words: a message view's words.
    var words: Int
}

/// Runs `body` with the calling thread's scratch buffers taken out of their slots, so that the
/// first encode or view in `body` starts from new buffers of the initial capacities (4096 bytes, 512
/// words), each a heap block of exactly that size — whatever earlier tests on the thread grew them
/// to. Returns what `body` returns and the capacities of the buffers given back in the meantime
/// (how far they grew); the buffers held aside are then freed.
func withFreshScratch<R>(_ body: () throws -> R) rethrows -> (R, ScratchCapacities) {
    let heldBytes = Scratch.bytes.take()
    let heldWords = Scratch.words.take()
    defer {
        // The slots hold the buffers `body` gave back, so these are freed.
        Scratch.bytes.giveBack(heldBytes.buffer, capacity: heldBytes.capacity)
        Scratch.words.giveBack(heldWords.buffer, capacity: heldWords.capacity)
    }
    let result = try body()
    let bytes = Scratch.bytes.take()
    Scratch.bytes.giveBack(bytes.buffer, capacity: bytes.capacity)
    let words = Scratch.words.take()
    Scratch.words.giveBack(words.buffer, capacity: words.capacity)
    return (result, ScratchCapacities(bytes: bytes.capacity, words: words.capacity))
}
