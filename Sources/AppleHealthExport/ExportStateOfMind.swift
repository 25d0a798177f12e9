/// A `StateOfMind` element, OpenHealthKit's own: Apple's export DTDs (v3 … v14) have no element
/// for `HKStateOfMind`, so this one is written in the style of `Record` — the sample's header
/// attributes, then `kind` and `valence`, and the labels and associations as NMTOKENS lists of
/// HealthKit's raw values (`HKStateOfMind.Label`, `.Association`), with `MetadataEntry` children.
/// Values stay as written; `ExportConversion` reads them and healthd validates them as an app's save.
public struct ExportStateOfMind: Sendable, Equatable {
    public var header: ExportSampleHeader
    /// `HKStateOfMind.Kind` raw value as written (1 momentary emotion, 2 daily mood).
    public var kind: String
    public var valence: String
    /// Space-separated raw values, nil when the attribute is absent (no labels).
    public var labels: String?
    public var associations: String?
}
