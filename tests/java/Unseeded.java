import ginrummy.Card;
import java.util.concurrent.ThreadLocalRandom;

/** Test player: simple, but it touches a generator ginsim cannot reseed (the probe must say so). */
public class Unseeded extends SimplePort {
    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        ThreadLocalRandom.current().nextInt();
        super.startGame(playerNum, startingPlayerNum, cards);
    }
}
