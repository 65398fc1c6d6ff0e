import { Controller, Inject } from '@nestjs/common';
import { common, playbackAuth } from '@platform/proto';
import { SigningKeysService } from './signing-keys.service';

@Controller()
@playbackAuth.SigningKeysServiceControllerMethods()
export class SigningKeysGrpcController implements playbackAuth.SigningKeysServiceController {
  constructor(@Inject(SigningKeysService) private readonly signingKeys: SigningKeysService) {}

  createSigningKey(): Promise<playbackAuth.SigningKey> {
    return this.signingKeys.create();
  }

  getSigningKey(request: common.IdRequest): Promise<playbackAuth.SigningKey> {
    return this.signingKeys.get(request.id);
  }

  listSigningKeys(request: common.PageRequest): Promise<playbackAuth.SigningKeyList> {
    return this.signingKeys.list(request);
  }

  deleteSigningKey(request: common.IdRequest): Promise<common.Empty> {
    return this.signingKeys.delete(request.id).then(() => ({}));
  }

  async verifySignedToken(request: playbackAuth.VerifySignedTokenRequest): Promise<playbackAuth.VerifySignedTokenReply> {
    const check = await this.signingKeys.verifyToken(request.token, request.audiences);
    if (!check.ok) return { valid: false, reason: check.reason, subject: '', audience: '', key_id: '' };
    return { valid: true, reason: '', subject: check.token.subject, audience: check.token.audience, key_id: check.token.kid };
  }
}
