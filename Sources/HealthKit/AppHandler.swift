/// A handler an app assigned to a query's handler property, carried to the query's task.
///
/// HealthKit's handler *properties* (`updateHandler`, `initialResultsHandler`,
/// `statisticsUpdateHandler`) are plain closures, as Objective-C blocks are, so code written for
/// Apple's SDK assigns closures that capture non-Sendable state (a view model's `self`) in Swift
/// 6 mode. HealthKit calls them on its own background queue; this SDK calls them from the
/// query's task — the same contract, which is what `@unchecked` states here.
struct AppHandler<Function>: @unchecked Sendable {
    let function: Function
}
