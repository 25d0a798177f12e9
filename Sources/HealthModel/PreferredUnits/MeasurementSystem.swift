/// Which units a person reads, as `Locale.MeasurementSystem` names them: the app sends its
/// locale's system with `preferredUnits(for:)` and the broker picks the defaults for it.
public enum MeasurementSystem: String, Hashable, Sendable, CaseIterable {
    case metric
    /// US customary units.
    case us
    /// The UK's mix: miles, stones and inches, but Celsius and millilitres.
    case uk
}
