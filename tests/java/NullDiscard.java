import ginrummy.Card;

/** Test player: getDiscard returns null. */
public class NullDiscard extends SimplePort {
    @Override
    public Card getDiscard() {
        return null;
    }
}
