/// A handler an app assigned to a query's handler property, carried to the query's task.
///
/// The handler *properties* (`HKAnchoredObjectQuery.updateHandler`,
/// `HKStatisticsCollectionQuery.initialResultsHandler`/`statisticsUpdateHandler`,
/// `HKActivitySummaryQuery.updateHandler`) take plain
/// closures. Apple's Swift interface declares them `@Sendable`, but declared so in a Swift
/// module, assigning a closure that captures non-Sendable state (a view model's `self`) is a
/// Swift 6 error even with `@preconcurrency` on the property — and ported code does exactly that.
/// So they stay plain (more permissive than Apple; see the SDK README). HealthKit calls them on
/// its own background queue; this SDK calls them from the query's task — the same contract,
/// which is what `@unchecked` states here.
struct AppHandler<Function>: @unchecked Sendable {
    let function: Function
}
