/** Test class: not a GinRummyPlayer. */
public class NotAPlayer {
}
