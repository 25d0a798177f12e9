/// HealthKit's objects are NSObjects whose equality is their UUID: two fetches of the same
/// stored sample are equal, a `Set` of fetched samples holds each stored object once, and
/// `contains` finds a sample fetched again (issue 15, item 3).
///
/// One difference Linux forces: HealthKit keeps the UUID an object was created with, while here
/// the broker assigns every stored object's UUID (so identifiers share no state across apps and
/// never reveal a hidden object, SECURITY.md) and `save` writes it back. An unsaved object kept
/// in a `Set` across its own save is therefore found under its old UUID no more — put objects in
/// sets after saving them, or fetched ones.
extension HKObject: Hashable {
    public static func == (lhs: HKObject, rhs: HKObject) -> Bool { lhs.uuid == rhs.uuid }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid)
    }
}
