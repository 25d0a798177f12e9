import Foundation
import HealthWire
import Testing

/// DESIGN.md §7.6 "a revoked permission takes effect at once, including on long-running
/// queries", measured with no save after the loss: a save would wake the queries by itself and
/// hide a broker that only re-scopes on commits. The reader runs a long-running anchored query,
/// an observer and a watched collection of steps while allowed to read them, in a world with
/// another app's steps and in a twin world without them, where it keeps its grant; then, in the
/// first world only, it loses read access (revoked, its temporary grant expires, or the grant
/// is narrowed to a 30-day window that excludes every other app's sample). From then on it must
/// hold exactly what the twin world gives it:
/// - no message on the anchored or observer stream that the twin world does not send too
///   (confined, and a loss must not announce itself, §7.2);
/// - the collection it holds, after the delivery the loss alone wakes, equals the twin's;
/// - after another app's save and its own save, the same again.
@Suite(.serialized, .timeLimit(.minutes(10))) struct RunningQueryRevocationTests {
    enum Loss: String, CaseIterable, CustomStringConvertible {
        case revoke, expire, narrowWindow
        var description: String { rawValue }
    }

    /// How long the `expire` case's grant lasts while both worlds' queries open: an hour, so no
    /// machine is too slow for the set-up. The expiry is then an explicit step: the grant is
    /// shortened to 1 s (a grant change that leaves the scope as it was wakes the queries, which
    /// then send nothing) and healthd's expiry scheduler logs its passing.
    static let grantSeconds = 3600

    @Test(arguments: Loss.allCases) func aRunningQueryIsConfinedFromTheLossOnWithoutASave(_ loss: Loss) async throws {
        let hidden = try await RevocationWorld(hidden: true)
        let control = try await RevocationWorld(hidden: false)
        try await hidden.grantRead(for: loss == .expire ? Self.grantSeconds : nil)
        try await control.grantRead()
        for world in [hidden, control] { try await world.openQueries() }
        #expect(hidden.heldCollection != control.heldCollection, "positive control: allowed to read, the watch must see the other app's steps")

        for world in [hidden, control] { world.markLoss() }
        switch loss {
        case .revoke:
            try await hidden.broker.set(RevocationWorld.reader, "read", RevocationWorld.steps, allowed: false)
        case .expire:
            try await hidden.grantRead(for: 1)
            try #require(try await hidden.waitForLog("temporary grant expired"), "no expiry in healthd's log: \(hidden.broker.log)")
        case .narrowWindow:
            let result = try await hidden.broker.healthctl(["grant", RevocationWorld.reader, "read", RevocationWorld.steps, "--window", "30d"])
            try #require(result.status == 0, "\(result)")
        }
        // No save: the loss alone must re-scope the watch (bounded wait for its delivery; the
        // twin world, which lost nothing, sends none).
        try await hidden.waitForMore(than: hidden.seenAtLoss["collection"] ?? 0, on: "collection")
        try await Task.sleep(for: ProbeWorld.settlingTime)
        compare(hidden, control, after: "the \(loss) alone")

        try await hidden.saveAsWriter()
        try await Task.sleep(for: ProbeWorld.settlingTime)
        compare(hidden, control, after: "the \(loss) and another app's save")

        // Only steps were lost: another app's heart rate still reaches the query over both types.
        let setSeen = Dictionary(uniqueKeysWithValues: [hidden, control].map { (ObjectIdentifier($0), $0.session.watched("anchored-set").count) })
        for world in [hidden, control] { try await world.saveHeartRateAsWriter() }
        for world in [hidden, control] { try await world.waitForMore(than: setSeen[ObjectIdentifier(world)] ?? 0, on: "anchored-set") }
        try await Task.sleep(for: ProbeWorld.settlingTime)
        compare(hidden, control, after: "the \(loss) and another app's save of a type still readable")
        #expect(hidden.session.watched("anchored-set").count > setSeen[ObjectIdentifier(hidden)] ?? 0,
                "positive control: another app's heart rate must still reach the query over steps and heart rate")

        for world in [hidden, control] { try await world.saveOwn() }
        for world in [hidden, control] { try await world.waitForMore(than: world.seenAtLoss["anchored"] ?? 0, on: "anchored") }
        try await Task.sleep(for: ProbeWorld.settlingTime)
        compare(hidden, control, after: "the \(loss) and the reader's own save")
        #expect(!control.sinceLoss("anchored", method: .queryAnchored).isEmpty, "positive control: the reader's own save must reach its anchored query")

        await hidden.stop()
        await control.stop()
    }

    func compare(_ hidden: RevocationWorld, _ control: RevocationWorld, after what: String) {
        for (stream, method) in [("anchored", HealthStoreMethod.queryAnchored), ("observer", .observeChanges),
                                 ("anchored-set", .queryAnchored)] {
            let leaked = hidden.sinceLoss(stream, method: method), twin = control.sinceLoss(stream, method: method)
            #expect(leaked == twin, "after \(what), the \(stream) stream differs from the twin world's:\n  with other data: \(leaked)\n  twin:            \(twin)")
        }
        #expect(hidden.heldCollection == control.heldCollection,
                "after \(what), the watched collection still holds other apps' data: \(hidden.heldCollection) vs \(control.heldCollection)")
    }
}
