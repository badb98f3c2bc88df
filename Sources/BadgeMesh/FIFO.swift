/// A first-in first-out queue that pops in constant time: what each daemon reply still to come
/// answers (`DaemonSession`).
struct FIFO<Element> {
  private var items: [Element] = []
  private var head = 0

  var isEmpty: Bool { head == items.count }

  mutating func push(_ item: Element) { items.append(item) }

  mutating func pop() -> Element? {
    guard head < items.count else { return nil }
    let item = items[head]
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 1024 && head * 2 >= items.count {
      items.removeFirst(head)
      head = 0
    }
    return item
  }

  var first: Element? { head < items.count ? items[head] : nil }

  mutating func removeAll() {
    items.removeAll()
    head = 0
  }
}
