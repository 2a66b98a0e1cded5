import ginrummy.Card;

/** Test player: calls System.exit from getDiscard. */
public class Exiter extends SimplePort {
    @Override
    public Card getDiscard() {
        System.exit(3);
        return null;
    }
}
