import { createRecourseClient, fileOAuthStateStore, signIn } from '@recourse/client';

/** Signs in to the board (a browser only when no usable tokens are stored) and asks who the client acts as. */
export async function whoAmI(url = 'http://127.0.0.1:3000/mcp'): Promise<unknown> {
  const auth = await signIn({
    serverUrl: url,
    store: fileOAuthStateStore('/home/me/.config/my-app/board-oauth.json'), // mode 0600
    clientName: 'My app', // the name the consent page shows
    onAuthorizationUrl: (authorizationUrl) => console.error(`To sign in, open ${authorizationUrl.href}`),
  });
  const board = createRecourseClient({ target: { url, auth } });
  try {
    return (await board.callTool('whoami', {})).result.structuredContent;
  } finally {
    await board.close();
  }
}
