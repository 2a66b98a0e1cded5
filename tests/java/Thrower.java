import ginrummy.Card;

/** Test player: throws from getDiscard. */
public class Thrower extends SimplePort {
    @Override
    public Card getDiscard() {
        throw new IllegalStateException("thrown on purpose by Thrower");
    }
}
