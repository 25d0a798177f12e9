import HealthWire

/// How each app method's answer keeps DESIGN.md §7.3 when healthd reads it more than once. An
/// answer a reader holds up goes stale when its grants change or an object it could see leaves
/// the store (`StreamVisibility.isCurrent`, `VisibleDeletions`: every kind below records its
/// readings' change numbers, so a hidden deletion reads nothing again), and is then read again;
/// what that second reading holds must not depend on what the reader cannot see.
///
/// Decided per method with no default, like `MethodTable.cost`: a method added to
/// `HealthStoreMethod` does not build until someone says which rule its answer follows, and
/// `RereadRuleTests` checks the table against `MethodTable.app` (every streamed answer claims a
/// rule for reading again; every one-frame reply claims none).
enum RereadRule: Equatable, Sendable {
    /// One reply frame, read once: nothing is read again.
    case oneReply
    /// Read again after a stall only within its first reading's snapshot (`ReadSnapshot`, held by
    /// `StreamVisibility`): per answer, or per delivery of a long-running query. Tested end to end
    /// by `BoundedRereadEndToEndTests` (anchored, collections, summaries and both watches) and
    /// `VisibleDeletionRereadEndToEndTests` (a window, predicates), effort relations by
    /// `WorkoutEffortRereadEndToEndTests`, and in the store by `ReadSnapshotTests` (effort
    /// relations: `WorkoutEffortStoreTests`).
    case boundedBySnapshot
    /// One object's data, which does not change once stored (a series, a finished route, an
    /// attachment): looked up again under the scope in force now, whose window is the first
    /// reading's unless the grant changed, so it can only lose the object to the user's hand or
    /// a visible deletion. Its readings are recorded (`ReadSnapshot.recordReading`) so that a
    /// hidden deletion reads nothing again (`VisibleDeletionRereadEndToEndTests`, the route case).
    case oneUnchangingObject
    /// Sends no stored health rows: the observer's "something changed" and the user's unit
    /// preferences.
    case noHealthRows

    static func of(_ method: HealthStoreMethod) -> RereadRule {
        switch method {
        case .querySamples, .queryCorrelations, .queryAnchored, .queryStatisticsCollection, .queryActivitySummaries,
             .watchStatisticsCollection, .watchActivitySummaries, .queryWorkoutEffortRelationships:
            return .boundedBySnapshot
        case .queryRouteData, .querySeriesData, .readAttachmentData:
            return .oneUnchangingObject
        case .observeChanges, .watchUserPreferences:
            return .noHealthRows
        case .getRequestStatus, .requestAuthorization, .authorizationStatus, .save, .acknowledgeObserverUpdate,
             .querySources, .addSamplesToWorkout, .insertRouteData, .finishRoute, .deleteObjects, .deleteMatching,
             .queryStatistics, .getCharacteristic, .preferredUnits, .enableBackgroundDelivery, .disableBackgroundDelivery,
             .disableAllBackgroundDeliveries, .currentSource, .requestPerObjectReadAuthorization, .offerDocuments,
             .relateWorkoutEffort, .unrelateWorkoutEffort, .beginAttachment, .appendAttachmentData, .finishAttachment,
             .listAttachments, .removeAttachment:
            return .oneReply
        }
    }
}
