/// One row of the category-type table: the raw values a category type's samples may carry.
struct CategoryTypeDefinition: Sendable {
    let identifier: HKCategoryTypeIdentifier
    let allowedValues: Set<Int>

    init(_ identifier: HKCategoryTypeIdentifier, allowedValues: Set<Int>) {
        self.identifier = identifier
        self.allowedValues = allowedValues
    }
}
