#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The storage of a field that closes the model's only cycle, ``MergerElem/messages``
/// (Message → elems → Elem → merger → MergerElem → messages → Message): the generator finds such
/// fields in the schema graph and keeps them here, behind the same public `[Message]` property.
///
/// Decoded messages are bounded by the decoders' depth limits, but a message built in code can nest
/// mergers as deep as memory allows (100,000 levels and more). Everything the compiler would write
/// for such a field recurses once per level and overflows the thread's stack long before that, so
/// this type replaces each of those paths with a loop over an explicit worklist:
///
/// - **Equality** (`==`): the outermost comparison on a thread compares its two arrays; a nested
///   comparison reached from it (through the synthesized `==` of Message, Elem, MergerElem) only
///   records its pair of boxes on that comparison's worklist and answers `true`, and the outermost
///   one compares the recorded pairs in turn until none is left, answering the conjunction. Every
///   `==` on the way is a conjunction of its parts, so the answer is the synthesized one.
/// - **Hashing**: likewise, a nested `hash(into:)` feeds the count into the hasher and records the
///   box; the outermost one then feeds each recorded box's messages into the same hasher. The order
///   depends only on the values' structure, so equal values feed equal sequences.
/// - **Teardown**: freeing the last reference to a box takes its messages apart with a loop
///   (``Box/deinit``) instead of letting the runtime release level inside level.
/// - **Visitors**: ``ProtoMessage/traverse(_:)`` hands the field to
///   ``FieldVisitor/visitNestedMessages(_:field:)``, so a visitor that must not recurse keeps the
///   messages on its own worklist; by default it is ``FieldVisitor/visitRepeatedMessage(_:field:)``.
///
/// An empty field holds no box (no allocation); a non-empty one holds a box shared by copies and
/// copied on write (`isKnownUniquelyReferenced`), as an array's buffer is.
@usableFromInline
package struct NestedMessages: Sendable {
    private var box: Box?

    @inline(__always)
    @usableFromInline package init() {}

    /// Storage holding `messages`.
    @usableFromInline package init(_ messages: [Message]) {
        if !messages.isEmpty { box = Box(messages) }
    }

    @usableFromInline package var isEmpty: Bool {
        @inline(__always) get { box?.messages.isEmpty ?? true }
    }

    @usableFromInline package var messages: [Message] {
        get { box?.messages ?? [] }
        set {
            if newValue.isEmpty {
                box = nil
            } else if isKnownUniquelyReferenced(&box) {
                box!.messages = newValue
            } else {
                box = Box(newValue)
            }
        }
        _modify {
            if box == nil {
                box = Box([])
            } else if !isKnownUniquelyReferenced(&box) {
                box = Box(box!.messages)
            }
            yield &box!.messages
        }
    }

    /// The box, emptied, when this value holds the only reference to it: the messages are moved out
    /// (for ``Box/deinit``). A shared box is never changed.
    mutating func takeMessagesIfUnique() -> [Message]? {
        guard box != nil, isKnownUniquelyReferenced(&box) else { return nil }
        var taken: [Message] = []
        swap(&taken, &box!.messages)
        return taken
    }

    /// Whether any message in the box holds a non-empty merger (so freeing it would go one more
    /// level deep).
    fileprivate static func nestsFurther(_ messages: [Message]) -> Bool {
        for message in messages {
            for elem in message.elems {
                if case .merger(let merger)? = elem.content, !merger._messages.isEmpty { return true }
            }
        }
        return false
    }

    /// The heap storage: a class so that its `deinit` can take a deep value apart without recursion.
    ///
    /// `@unchecked Sendable`: `messages` is mutated only through ``NestedMessages``, which does so
    /// only when the box is uniquely referenced (copy on write, as `Array` does), so a box reachable
    /// from more than one thread is never written; `[Message]` itself is `Sendable`.
    ///
    /// [unsafe: model-storage] `@exclusivity(unchecked)`: the same rule makes the runtime's exclusivity check on each access
    /// redundant — a write happens inside a `mutating` member of the one ``NestedMessages`` that
    /// references the box, whose own exclusivity the compiler checks statically (the check's cost is
    /// in Docs/benchmarks.md).
    fileprivate final class Box: @unchecked Sendable {
        @exclusivity(unchecked) var messages: [Message]

        init(_ messages: [Message]) {
            self.messages = messages
        }

        /// Frees the messages level by level with an explicit stack: each nested box this one
        /// holds the only reference to is emptied here (its messages moved onto the stack) before it
        /// is released, so releasing it does not recurse. A box still referenced elsewhere is only
        /// released; its last owner frees it the same way. Messages without nested mergers are left to
        /// the ordinary release.
        deinit {
            guard NestedMessages.nestsFurther(messages) else { return }
            var stack: [[Message]] = [[]]
            swap(&stack[0], &messages)
            while var list = stack.popLast() {
                while var message = list.popLast() {
                    var elems: [Elem] = []
                    swap(&elems, &message.elems)
                    while var elem = elems.popLast() {
                        guard case .merger(var merger)? = elem.content else { continue }
                        elem.content = nil  // `merger` is now the only owner of its fields, if nothing else is
                        if let nested = merger._takeMessagesIfUnique(), !nested.isEmpty { stack.append(nested) }
                    }
                }
            }
        }
    }
}

// MARK: - Equality and hashing without recursion

extension NestedMessages: Hashable {
    @usableFromInline
    package static func == (lhs: NestedMessages, rhs: NestedMessages) -> Bool {
        // [unsafe: nested-messages] the worklist is a local whose address is in the thread's slot only while
        // this frame runs (`begin` and `end` bracket it); a nested comparison appends through the slot when
        // no other access to the array is open (between `popLast` and the next one).
        if lhs.box === rhs.box { return true }
        guard let left = lhs.box, let right = rhs.box else { return lhs.isEmpty && rhs.isEmpty }
        // A difference in count is an answer at any depth: the enclosing comparisons are conjunctions.
        if left.messages.count != right.messages.count { return false }
        if let running = DeferredWork.current(DeferredWork.comparisonKey) {
            running.assumingMemoryBound(to: [(Box, Box)].self).pointee.append((left, right))
            return true
        }
        var pending = [(left, right)]
        return withUnsafeMutablePointer(to: &pending) { pending in
            DeferredWork.begin(DeferredWork.comparisonKey, pending)
            defer { DeferredWork.end(DeferredWork.comparisonKey) }
            while let (left, right) = pending.pointee.popLast() {
                // Comparing may append to `pending` (through the thread's slot): no access to it is open here.
                if left !== right && left.messages != right.messages { return false }
            }
            return true
        }
    }

    @usableFromInline
    package func hash(into hasher: inout Hasher) {
        // [unsafe: nested-messages] as for `==`: the local worklist is in the thread's slot only while this
        // frame runs.
        guard let box, !box.messages.isEmpty else {
            hasher.combine(0)
            return
        }
        hasher.combine(box.messages.count)
        if let running = DeferredWork.current(DeferredWork.hashingKey) {
            running.assumingMemoryBound(to: [Box].self).pointee.append(box)
            return
        }
        var pending = [box]
        withUnsafeMutablePointer(to: &pending) { pending in
            DeferredWork.begin(DeferredWork.hashingKey, pending)
            defer { DeferredWork.end(DeferredWork.hashingKey) }
            while let next = pending.pointee.popLast() {
                for message in next.messages { hasher.combine(message) }
            }
        }
    }
}

/// The per-thread slots through which a nested `==` or `hash(into:)` of ``NestedMessages`` finds the
/// worklist of the outermost one running on its thread (`nil` when none is). A slot points at a
/// local variable of that outermost call, and is cleared before the call returns.
private enum DeferredWork {
    static let comparisonKey = makeKey()
    static let hashingKey = makeKey()

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for nested message comparison")
        return key
    }

    @inline(__always)
    static func current(_ key: pthread_key_t) -> UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

    static func begin<T>(_ key: pthread_key_t, _ worklist: UnsafeMutablePointer<T>) {
        pthread_setspecific(key, UnsafeMutableRawPointer(worklist))
    }

    static func end(_ key: pthread_key_t) {
        pthread_setspecific(key, nil)
    }
}

/// `dump(_:)` and debuggers show the messages as an array, as they did when the field was one, not
/// the box. (Reflection recurses: dumping a value nested thousands of levels deep still overflows.)
extension NestedMessages: CustomReflectable {
    @usableFromInline
    package var customMirror: Mirror {
        Mirror(self, unlabeledChildren: messages, displayStyle: .collection)
    }
}
