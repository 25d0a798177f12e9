// HealthKit's identifier constants for the types that have no identifier struct.

/// The workout type's identifier (string_constants.tsv).
public let HKWorkoutTypeIdentifier = "HKWorkoutTypeIdentifier"

/// The workout route series type's identifier. string_constants.tsv marks the raw value as
/// unverified; HealthKit's type identifier constants hold their own names, as assumed here.
public let HKWorkoutRouteTypeIdentifier = "HKWorkoutRouteTypeIdentifier"

/// The heartbeat series type's identifier (same caveat as the route's).
public let HKDataTypeIdentifierHeartbeatSeries = "HKDataTypeIdentifierHeartbeatSeries"

/// The activity summary type's identifier. HealthKit exports no constant for it; this is the
/// identifier its activity summary type reports.
let activitySummaryTypeIdentifier = "HKActivitySummaryTypeIdentifier"

/// The electrocardiogram type's identifier. HealthKit exports no constant for it; this is the
/// raw value its type object carries (`HKElectrocardiogramType.identifier`).
public let HKElectrocardiogramTypeIdentifier = "HKDataTypeIdentifierElectrocardiogram"

/// The State of Mind type's identifier. HealthKit's constant is named
/// `HKDataTypeIdentifierStateOfMind` but its value is "HKDataTypeStateOfMind"
/// (string_constants.tsv, read from the iOS 18 frameworks).
public let HKDataTypeIdentifierStateOfMind = "HKDataTypeStateOfMind"

/// The audiogram type's identifier (`HKDataTypeIdentifierAudiogram`, HKTypeIdentifiers.h).
public let HKDataTypeIdentifierAudiogram = "HKDataTypeIdentifierAudiogram"
