import ginrummy.Card;

/** Test player: never answers willDrawFaceUpCard. */
public class Hanger extends SimplePort {
    public static volatile long spins;

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        while (true)
            spins++;
    }
}
