/// An `HKStateOfMind`'s value (iOS 18): what kind of reflection it is, how pleasant it felt,
/// and the words and parts of life the person tied to it. Raw values are HealthKit's, so a value
/// read from the store or the wire means the same thing in Apple's SDK.
public struct StateOfMindValue: Hashable, Sendable {
    /// `HKStateOfMind.Kind` raw value: 1 momentaryEmotion, 2 dailyMood.
    public var kind: Int
    /// −1 (very unpleasant) … +1 (very pleasant), both ends included.
    public var valence: Double
    /// `HKStateOfMind.Label` raw values, in the order the app gave them.
    public var labels: [Int]
    /// `HKStateOfMind.Association` raw values, in the order the app gave them.
    public var associations: [Int]

    public init(kind: Int, valence: Double, labels: [Int] = [], associations: [Int] = []) {
        self.kind = kind
        self.valence = valence
        self.labels = labels
        self.associations = associations
    }

    /// HealthKit's kinds (spec/healthkit/enums.tsv, HKStateOfMindKind).
    public static let kinds: ClosedRange<Int> = 1...2
    /// HealthKit's 38 labels: amazed (1) … worried (31) in alphabetical order, then the ones
    /// added later, annoyed (32) … satisfied (38) — the order of HealthKit's own name table.
    public static let labels: ClosedRange<Int> = 1...38
    /// HealthKit's 18 associations: community (1) … work (17), weather (18).
    public static let associations: ClosedRange<Int> = 1...18
    /// HealthKit's valence range; NaN is outside it.
    public static let valenceRange: ClosedRange<Double> = -1...1

    /// `HKStateOfMind.ValenceClassification` raw value (1 veryUnpleasant … 7 veryPleasant) for
    /// `valence`, or nil outside −1…1. HealthKit splits the range into seven bands of width 2/7
    /// centred on −6/7 … +6/7; the band edges below neutral belong to the band above them and
    /// the edges above neutral to the band below them, so ±1/7 are both neutral.
    public static func classification(forValence valence: Double) -> Int? {
        guard valenceRange.contains(valence) else { return nil }
        // The upper edge of band i (1-based): −1 + i·2/7, computed as (2i − 7)/7 so that the
        // edges are the correctly rounded sevenths (1.0 / 7 is exactly the neutral edge).
        func edge(_ band: Int) -> Double { Double(2 * band - 7) / 7 }
        if valence < edge(1) { return 1 }
        if valence < edge(2) { return 2 }
        if valence < edge(3) { return 3 }
        if valence <= edge(4) { return 4 }
        if valence <= edge(5) { return 5 }
        if valence <= edge(6) { return 6 }
        return 7
    }
}
