public import Foundation

/// CoreLocation's `CLFloor`: the logical floor of the building a fix was taken in (`level`, 0 for
/// the ground floor, negative below it). Like Apple's, apps never create one; they read
/// `CLLocation.floor`.
public final class CLFloor: NSObject, Sendable {
    public let level: Int

    init(level: Int) {
        self.level = level
        super.init()
    }
}
