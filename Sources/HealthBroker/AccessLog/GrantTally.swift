import HealthModel

/// How many grant decisions of each kind a change made, for the access log's detail column
/// (which types is in the entry's types; the decision per type stays in the grants table).
struct GrantTally {
    let authorized: Int
    let denied: Int
    let cleared: Int

    init(_ decisions: [GrantDecision]) {
        authorized = decisions.count { $0.decision == .authorized }
        denied = decisions.count { $0.decision == .denied }
        cleared = decisions.count { $0.decision == .notDetermined }
    }

    var summary: String { "\(authorized) authorized, \(denied) denied, \(cleared) cleared" }
}
