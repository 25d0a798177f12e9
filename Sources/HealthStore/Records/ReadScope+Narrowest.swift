import Foundation

extension ReadScope {
    /// The one scope that admits an object exactly when each of `scopes` admits it, judged by the
    /// object's own source and start; nil when no object can be admitted by all of them (no
    /// scopes at all, or scopes of different apps, which one caller never has).
    ///
    /// A correlation is visible only when each of the types it may hold is readable, so its
    /// rows are confined by this narrowest scope in SQL — an index range, like any scope — and a
    /// reader allowed some of the types never reads the correlations it cannot see.
    ///
    /// The order: own samples ⊂ a window (own samples plus everything from `since` on) ⊂ all
    /// sources; two windows of one app meet in the later `since`. Lives beside
    /// `SampleSQL.visibility`, the only other code that knows the cases.
    public static func narrowest(_ scopes: some Sequence<ReadScope>) -> ReadScope? {
        var narrowest: ReadScope?
        for scope in scopes {
            guard let current = narrowest else {
                narrowest = scope
                continue
            }
            switch (current, scope) {
            case (.allSources, _):
                narrowest = scope
            case (_, .allSources):
                continue
            case let (.ownSamples(a), .ownSamples(b)), let (.ownSamples(a), .recentWindow(b, _)), let (.recentWindow(a, _), .ownSamples(b)):
                guard a == b else { return nil }
                narrowest = .ownSamples(appID: a)
            case let (.recentWindow(a, since), .recentWindow(b, otherSince)):
                guard a == b else { return nil }
                narrowest = .recentWindow(appID: a, since: max(since, otherSince))
            case let (.ownAndGrantedObjects(a), .ownAndGrantedObjects(b)):
                guard a == b else { return nil }
                narrowest = .ownAndGrantedObjects(appID: a)
            // With any other confined scope: own samples, narrower than the true meet (which would
            // add the granted objects inside a window): it can only hide, never reveal.
            case let (.ownAndGrantedObjects(a), .ownSamples(b)), let (.ownAndGrantedObjects(a), .recentWindow(b, _)),
                 let (.ownSamples(a), .ownAndGrantedObjects(b)), let (.recentWindow(a, _), .ownAndGrantedObjects(b)):
                guard a == b else { return nil }
                narrowest = .ownSamples(appID: a)
            }
        }
        return narrowest
    }
}
