/// Keeps the optimiser from dropping a result it can prove unused (the view walk hands it the first
/// bytes it reads; BenchSupport's harness has the same function).
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
