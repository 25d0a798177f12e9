/// What a long-running descriptor's `results(for:)` returns (HealthKit names it `Results` on each
/// descriptor): the query's results as the broker delivers them, until the task iterating it is
/// cancelled, which stops the query on the broker.
public struct QueryResultSequence<Element: Sendable>: AsyncSequence, Sendable {
    let stream: AsyncThrowingStream<Element, any Error>

    public func makeAsyncIterator() -> AsyncThrowingStream<Element, any Error>.AsyncIterator {
        stream.makeAsyncIterator()
    }
}
