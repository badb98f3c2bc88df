extension Array where Element: Comparable {
  /// Where `element` is in this sorted array, or where it would go to keep it sorted: a binary
  /// search, so that finding one of thousands of channels does not compare it with each.
  func sortedPlace(of element: Element) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle] < element { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The index of `element` in this sorted array, if it is there.
  func sortedIndex(of element: Element) -> Int? {
    let place = sortedPlace(of: element)
    return place < count && self[place] == element ? place : nil
  }
}
